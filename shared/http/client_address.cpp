#include "http/client_address.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "http/request.h"
#include "text/ascii.h"

namespace petstore::http {
namespace {

// The address as 16 bytes (IPv4 as ::ffff:a.b.c.d), and whether it was IPv4.
std::optional<std::pair<std::array<std::uint8_t, 16>, bool>> parse_address(std::string_view text) {
  if (text.empty() || text.size() > 45) {
    return std::nullopt;
  }
  const std::string s(text);
  std::array<std::uint8_t, 16> bytes{};
  in_addr v4{};
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1) {
    bytes[10] = bytes[11] = 0xFF;
    std::memcpy(&bytes[12], &v4, 4);
    return std::pair{bytes, true};
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) {
    std::memcpy(bytes.data(), &v6, 16);
    return std::pair{bytes, false};
  }
  return std::nullopt;
}

}  // namespace

TrustedProxies TrustedProxies::parse(std::string_view list) {
  TrustedProxies out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto entry = text::trim_ows(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (entry.empty()) {
      continue;
    }
    const auto slash = entry.find('/');
    const auto address = parse_address(entry.substr(0, slash));
    if (!address) {
      throw std::invalid_argument("TRUSTED_PROXIES: '" + std::string(entry) +
                                  "' is not an address or CIDR range");
    }
    const int width = address->second ? 32 : 128;
    int bits = width;
    if (slash != std::string_view::npos) {
      const auto text = entry.substr(slash + 1);
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), bits);
      if (ec != std::errc{} || ptr != text.data() + text.size() || bits < 0 || bits > width) {
        throw std::invalid_argument("TRUSTED_PROXIES: '" + std::string(entry) + "' has a bad prefix length");
      }
    }
    out.ranges_.push_back({address->first, bits + (address->second ? 96 : 0)});
  }
  return out;
}

bool TrustedProxies::contains(std::string_view address) const {
  const auto parsed = parse_address(address);
  if (!parsed) {
    return false;
  }
  const auto& a = parsed->first;
  for (const auto& r : ranges_) {
    bool inside = true;
    for (int bit = 0; bit < r.prefix && inside; ++bit) {
      const auto byte = static_cast<size_t>(bit / 8);
      const auto mask = static_cast<std::uint8_t>(0x80U >> static_cast<unsigned>(bit % 8));
      inside = (a[byte] & mask) == (r.bytes[byte] & mask);
    }
    if (inside) {
      return true;
    }
  }
  return false;
}

std::string client_address(const httplib::Request& req, const TrustedProxies& trusted) {
  std::string hop = req.remote_addr;
  if (!trusted.contains(hop)) {
    return hop;
  }
  // Every X-Forwarded-For header, as one list (RFC 7239's predecessor
  // allows the header to be split over several fields).
  const auto list = field_list(req, "X-Forwarded-For");
  std::string_view rest(list);
  while (!rest.empty()) {
    const auto comma = rest.rfind(',');
    const auto entry = text::trim_ows(comma == std::string_view::npos ? rest : rest.substr(comma + 1));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(0, comma);
    if (!parse_address(entry)) {
      break;  // not an address: the hop that appended it is the last we can believe
    }
    hop = std::string(entry);
    if (!trusted.contains(hop)) {
      break;
    }
  }
  return hop;
}

}  // namespace petstore::http
