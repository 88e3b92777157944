#include "http/client_address.h"

#include <gtest/gtest.h>

namespace petstore::http {
namespace {

httplib::Request from(std::string peer, std::vector<std::string> forwarded = {}) {
  httplib::Request req;
  req.remote_addr = std::move(peer);
  for (auto& f : forwarded) {
    req.headers.emplace("X-Forwarded-For", std::move(f));
  }
  return req;
}

TEST(TrustedProxies, CidrRangesOfBothFamilies) {
  const auto t = TrustedProxies::parse(" 127.0.0.0/8, ::1/128 ,10.1.2.3, 2001:db8::/32");
  EXPECT_TRUE(t.contains("127.9.9.9"));
  EXPECT_TRUE(t.contains("::1"));
  EXPECT_TRUE(t.contains("10.1.2.3"));
  EXPECT_FALSE(t.contains("10.1.2.4"));
  EXPECT_TRUE(t.contains("2001:db8:1::5"));
  EXPECT_FALSE(t.contains("2001:db9::5"));
  EXPECT_FALSE(t.contains("128.0.0.1"));
  EXPECT_FALSE(t.contains("not an address"));
  EXPECT_TRUE(TrustedProxies::parse("").empty());
  EXPECT_THROW(TrustedProxies::parse("10.0.0.0/33"), std::invalid_argument);
  EXPECT_THROW(TrustedProxies::parse("example.com"), std::invalid_argument);
}

TEST(ClientAddress, OnlyTrustedPeersMayNameTheClient) {
  const auto t = TrustedProxies::parse("127.0.0.1/32,10.0.0.0/8");
  // An untrusted peer is itself, whatever it claims.
  EXPECT_EQ(client_address(from("203.0.113.7", {"198.51.100.1"}), t), "203.0.113.7");
  // The entry point (trusted) appended the client's address.
  EXPECT_EQ(client_address(from("127.0.0.1", {"198.51.100.1"}), t), "198.51.100.1");
  // A client's own spoofed entries stand left of what the proxy appended: ignored.
  EXPECT_EQ(client_address(from("127.0.0.1", {"1.1.1.1, 2.2.2.2, 198.51.100.1"}), t), "198.51.100.1");
  // Trusted hops are walked past, over several header fields.
  EXPECT_EQ(client_address(from("127.0.0.1", {"198.51.100.1, 10.0.0.5", "10.0.0.6"}), t), "198.51.100.1");
  // Garbage where an address should be: the last hop believed.
  EXPECT_EQ(client_address(from("127.0.0.1", {"junk, 10.0.0.5"}), t), "10.0.0.5");
  EXPECT_EQ(client_address(from("127.0.0.1"), t), "127.0.0.1");
}

}  // namespace
}  // namespace petstore::http
