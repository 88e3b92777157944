#include "text/utf8.h"

#include <gtest/gtest.h>

namespace petstore::text {
namespace {

TEST(Utf8, CountsCodePoints) {
  EXPECT_EQ(code_points(""), 0U);
  EXPECT_EQ(code_points("abc"), 3U);
  EXPECT_EQ(code_points("\xC3\xBC"), 1U);           // ü
  EXPECT_EQ(code_points("\xF0\x9F\x90\x95x"), 2U);  // dog emoji + x
}

TEST(Utf8, ControlCharacters) {
  EXPECT_FALSE(has_control_characters("Rex the dog"));
  EXPECT_TRUE(has_control_characters("a\tb"));
  EXPECT_TRUE(has_control_characters(std::string("a\0b", 3)));
  EXPECT_TRUE(has_control_characters("a\x7F"));
  EXPECT_TRUE(has_control_characters("a\xC2\x85"));  // U+0085 NEL
  EXPECT_FALSE(has_control_characters("\xC2\xA0"));  // U+00A0 is not a control
}

TEST(Utf8, Blank) {
  EXPECT_TRUE(is_blank(""));
  EXPECT_TRUE(is_blank(" \t\r\n"));
  EXPECT_FALSE(is_blank(" x "));
}

}  // namespace
}  // namespace petstore::text
