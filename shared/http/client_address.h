#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <httplib.h>

namespace petstore::http {

// Address ranges (CIDR, IPv4 and IPv6) whose X-Forwarded-For is believed:
// the entry points in front of the replicas. TRUSTED_PROXIES, comma-separated,
// e.g. "127.0.0.0/8,::1/128" (the default: a local nginx) or the compose
// network's range.
class TrustedProxies {
 public:
  // Throws std::invalid_argument naming the entry that is not a CIDR range or address.
  static TrustedProxies parse(std::string_view list);

  [[nodiscard]] bool contains(std::string_view address) const;
  [[nodiscard]] bool empty() const { return ranges_.empty(); }

 private:
  struct Range {
    std::array<std::uint8_t, 16> bytes{};  // IPv4 mapped into ::ffff:0:0/96
    int prefix = 0;                        // bits, of the 128
  };
  std::vector<Range> ranges_;
};

// Who sent the request, for the limiter: the peer's address, unless the peer
// is a trusted proxy; then X-Forwarded-For is walked from the right (the
// entry the nearest proxy appended) past trusted proxies, and the first
// entry that is not one is the client. A peer that is not trusted cannot
// choose its address by sending the header, and so cannot get a fresh budget
// with every request.
std::string client_address(const httplib::Request& req, const TrustedProxies& trusted);

}  // namespace petstore::http
