// Every answer reads the same whatever Accept-Encoding the client sent:
// through the entry point and at each replica (one of which owns the
// aggregate and one forwards the command to it), for reads and for every
// kind of write, the body is coded at most once, as asked (weights
// included), and decodes to the same JSON.
#include <brotli/decode.h>
#include <zlib.h>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <array>
#include <map>
#include <optional>

#include "support/http_json.h"
#include "support/raw_http.h"
#include "support/store_deployment.h"

namespace petstore::testing {
namespace {

struct Coding {
  const char* accept;  // the request's Accept-Encoding; nullptr: none sent
  const char* expect;  // the answer's Content-Encoding; "" for none
};
constexpr std::array kCodings{Coding{"gzip", "gzip"}, Coding{"br", "br"},  Coding{"gzip;q=0", ""},
                              Coding{"identity", ""}, Coding{nullptr, ""}, Coding{"gzip, br;q=0", "gzip"}};

std::optional<std::string> gunzip(const std::string& in) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
    return std::nullopt;
  }
  std::string out;
  std::array<char, 16384> chunk{};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));  // NOLINT
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk.data());  // NOLINT
    z.avail_out = chunk.size();
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END && z.avail_in == 0 ? std::optional(out) : std::nullopt;
}

std::optional<std::string> unbrotli(const std::string& in) {
  std::string out(1 << 20, '\0');
  size_t size = out.size();
  if (BrotliDecoderDecompress(in.size(), reinterpret_cast<const uint8_t*>(in.data()), &size,  // NOLINT
                              reinterpret_cast<uint8_t*>(out.data())) != BROTLI_DECODER_RESULT_SUCCESS) {
    return std::nullopt;
  }
  out.resize(size);
  return out;
}

size_t header_lines(const RawResponse& r, const std::string& lower_name) {
  size_t n = 0;
  std::string lower;
  for (const char c : r.head) {
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (auto at = lower.find("\r\n" + lower_name + ":"); at != std::string::npos;
       at = lower.find("\r\n" + lower_name + ":", at + 1)) {
    ++n;
  }
  return n;
}

struct Call {
  std::string method;
  std::string path;
  std::string body;             // JSON, sent with Content-Type when not empty
  std::string idempotency_key;  // sent when not empty
  bool same_answer = true;      // the answer's JSON is the same every time it is sent
};

// One call with one Accept-Encoding on a new connection to `port`: the JSON
// its body decodes to (empty for an empty body), or a failure.
std::string send(int port, const std::string& key, const Call& call, const Coding& coding, int& status) {
  std::string bytes = call.method + " " + call.path +
                      " HTTP/1.1\r\nHost: petstore.test\r\nX-API-Key: " + key + "\r\nConnection: close\r\n";
  if (coding.accept != nullptr) {
    bytes += std::string("Accept-Encoding: ") + coding.accept + "\r\n";
  }
  if (!call.idempotency_key.empty()) {
    bytes += "Idempotency-Key: " + call.idempotency_key + "\r\n";
  }
  if (!call.body.empty() || call.method != "GET") {
    bytes += "Content-Type: application/json\r\nContent-Length: " + std::to_string(call.body.size()) + "\r\n";
  }
  bytes += "\r\n" + call.body;
  RawConnection c(port, std::chrono::seconds(15));
  c.send(bytes);
  const auto r = c.next();
  status = r.status;
  const auto where = call.method + " " + call.path +
                     " (Accept-Encoding: " + (coding.accept != nullptr ? coding.accept : "none") + ", port " +
                     std::to_string(port) + ")";
  EXPECT_NE(r.status, 0) << where << ": no answer";
  EXPECT_LE(header_lines(r, "content-encoding"), 1U) << where << ":\n" << r.head;
  const auto encoding = r.header("Content-Encoding");
  if (r.body.empty()) {
    EXPECT_EQ(encoding, "") << where;
    return "";
  }
  EXPECT_EQ(encoding, coding.expect) << where << ":\n" << r.head;
  std::optional<std::string> plain = r.body;
  if (encoding == "gzip") {
    plain = gunzip(r.body);
  } else if (encoding == "br") {
    plain = unbrotli(r.body);
  }
  if (!plain) {
    ADD_FAILURE() << where << ": the body does not decode as " << encoding << "\n" << r.head;
    return "";
  }
  rapidjson::Document d;
  d.Parse(plain->c_str(), plain->size());
  EXPECT_FALSE(d.HasParseError()) << where << ": not JSON: " << plain->substr(0, 200);
  return *plain;
}

TEST(ContentCoding, EveryAnswerDecodesToTheSameJsonWhateverTheClientAccepts) {
  StoreDeployment store(2);
  auto http = store.client();
  const auto stocked = stocked_pets(*http, "Coded", 2, 50);
  ASSERT_TRUE(stocked.stocked);
  const auto pet = std::to_string(stocked.pets.at(0));
  const auto doomed = std::to_string(stocked.pets.at(1));
  const auto category = std::to_string(stocked.category);
  const auto order = post_retrying(*http, "/store/orders", R"({"petId":)" + pet + "}", "coded-order-0");
  ASSERT_TRUE(order && (order->status == 201 || order->status == 202)) << (order ? order->body : "no answer");
  const auto order_id = std::to_string(id_of(order));

  const std::map<std::string, std::vector<Call>> calls = {
      {"pets",
       {{"GET", "/pets/" + pet, "", ""},
        {"GET", "/pets?categoryId=" + category + "&limit=5", "", ""},
        {"GET", "/pets/" + pet + "/history?limit=2", "", ""},
        {"GET", "/categories/" + category, "", ""},
        {"POST", "/categories", R"({"name":"Coded twice"})", "coded-category"},
        {"POST", "/pets", R"({"name":"Keyed","categoryId":)" + category + "}", "coded-pet"},
        {"PUT", "/pets/" + pet + "/status", R"({"status":"available"})", "", false},
        {"PUT", "/pets/" + pet, R"({"name":"Coded 0","categoryId":)" + category + "}", "", false},
        {"PUT", "/categories/" + category, R"({"name":"Coded"})", "", false},
        {"DELETE", "/pets/" + doomed, "", "", false},
        {"GET", "/pets/999999999999", "", ""}}},
      {"orders",
       {{"GET", "/store/orders/" + order_id, "", "", false},
        {"GET", "/store/orders?petId=" + pet, "", "", false},
        {"POST", "/store/orders", R"({"petId":)" + pet + "}", "coded-order-0"},
        {"POST", "/store/orders/" + order_id + "/complete", "", "", false},
        {"POST", "/store/orders/" + order_id + "/cancel", "", "", false}}},
      {"inventory",
       {{"GET", "/store/inventory/items/" + pet, "", "", false},
        {"GET", "/store/inventory", "", "", false},
        {"PUT", "/store/inventory/items/" + pet, R"({"quantity":40})", "", false}}},
  };
  for (const auto& [service, list] : calls) {
    const std::array ports{store.entry_port(), store.replica(service, 0).port(),
                           store.replica(service, 1).port()};
    for (const auto& call : list) {
      std::optional<std::string> first;
      for (const auto port : ports) {
        for (const auto& coding : kCodings) {
          int status = 0;
          const auto json = send(port, store.api_key(), call, coding, status);
          EXPECT_NE(status, 500) << call.method << " " << call.path << ": " << json;
          if (!call.same_answer || status >= 500) {
            continue;
          }
          if (!first) {
            first = json;
          }
          EXPECT_EQ(json, *first) << call.method << " " << call.path << " at port " << port << " with "
                                  << (coding.accept != nullptr ? coding.accept : "no Accept-Encoding");
        }
      }
    }
  }
}

}  // namespace
}  // namespace petstore::testing
