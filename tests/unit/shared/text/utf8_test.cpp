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

TEST(Utf8, WellFormedness) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("Rex \xC3\xBC \xF0\x9F\x90\x95"));
  EXPECT_TRUE(is_valid_utf8("\xEF\xBF\xBD"));       // U+FFFD
  EXPECT_FALSE(is_valid_utf8("\xFF"));              // never a UTF-8 byte
  EXPECT_FALSE(is_valid_utf8("\xC3"));              // cut short
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xED\xB0\x80"));      // U+DC00, a lone surrogate
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // U+D800
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));   // U+10FFFF
}

TEST(Utf8, InvalidBytesBecomeReplacementCharacters) {
  EXPECT_EQ(to_valid_utf8("a\xFF"
                          "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(to_valid_utf8("/nope\xED\xB0\x80"), "/nope\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(to_valid_utf8("ok \xC3\xBC"), "ok \xC3\xBC");
  EXPECT_TRUE(is_valid_utf8(to_valid_utf8("\xC3(\xA0\xA1\xE2\x28\xA1")));
}

}  // namespace
}  // namespace petstore::text
