#include "config/env.h"

#include <gtest/gtest.h>

namespace petstore::config {
namespace {

using Vars = std::map<std::string, std::string>;

TEST(Env, DefaultsWhenUnsetOrEmpty) {
  const Env env(Vars{{"EMPTY", ""}});
  EXPECT_EQ(env.str("MISSING", "d"), "d");
  EXPECT_EQ(env.str("EMPTY", "d"), "d");
  EXPECT_EQ(env.integer("MISSING", 5, 0, 10), 5);
  EXPECT_TRUE(env.flag("MISSING", true));
}

TEST(Env, ParsesAndRangeChecks) {
  const Env env(Vars{{"N", "42"}, {"BIG", "99"}, {"BAD", "4x"}, {"B", "off"}});
  EXPECT_EQ(env.integer("N", 0, 0, 100), 42);
  EXPECT_THROW(static_cast<void>(env.integer("BIG", 0, 0, 50)), ConfigError);
  EXPECT_THROW(static_cast<void>(env.integer("BAD", 0, 0, 50)), ConfigError);
  EXPECT_FALSE(env.flag("B", true));
  EXPECT_THROW(static_cast<void>(Env(Vars{{"F", "maybe"}}).flag("F", true)), ConfigError);
}

TEST(Env, ErrorNamesTheVariable) {
  try {
    static_cast<void>(Env(Vars{{"HTTP_PORT", "eighty"}}).integer("HTTP_PORT", 1, 1, 65535));
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("HTTP_PORT"), std::string::npos);
  }
}

}  // namespace
}  // namespace petstore::config
