// text::sha1_hex names Lua scripts as Redis does (EVALSHA finds a script
// by the SHA-1 of its source; redis::Script), and text::sha256_hex an API
// key's record. Known answers from FIPS 180-2's examples.
#include "text/digest.h"

#include <gtest/gtest.h>

#include <array>

namespace petstore::text {
namespace {

TEST(Digest, Sha1OfKnownInputs) {
  EXPECT_EQ(sha1_hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(sha1_hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

TEST(Digest, Sha256OfKnownInputs) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Digest, HexIsLowerCaseTwoDigitsAByte) {
  const std::array<unsigned char, 4> bytes = {0x00, 0x0f, 0xa0, 0xff};
  EXPECT_EQ(hex(bytes), "000fa0ff");
  EXPECT_EQ(hex({}), "");
}

TEST(Digest, BytesAfterANulCount) {
  EXPECT_NE(sha256_hex(std::string_view("a\0b", 3)), sha256_hex("a"));
}

}  // namespace
}  // namespace petstore::text
