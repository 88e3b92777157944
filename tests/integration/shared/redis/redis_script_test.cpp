// redis::Script and redis::pipeline_scripts against the real Redis: a
// pipeline that meets a script Redis has not cached loads it and is sent
// again, and every other reply comes back to the caller as Redis gave it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "redis/connection.h"
#include "redis/script.h"
#include "support/stack.h"

namespace petstore::testing {
namespace {

class RedisScript : public ::testing::Test {
 protected:
  // A script of this test's own (its source names the test's key), so no
  // other test has had Redis cache it.
  redis::Script fresh(const std::string& body) const { return redis::Script("-- " + key_ + "\n" + body); }
  bool cached(const redis::Script& s) {
    const auto r = conn_.command({"SCRIPT", "EXISTS", s.sha()});
    return r->elements == 1 && r->element[0]->integer == 1;
  }
  std::string get(const std::string& key) {
    const auto r = conn_.command({"GET", key});
    return r->type == REDIS_REPLY_NIL ? "(nil)" : std::string(redis::as_string(*r));
  }

  redis::Connection conn_{Stack::get().redis_endpoint()};
  std::string key_ = unique_name("script");
};

TEST_F(RedisScript, APipelineThatMeetsAnUncachedScriptLoadsItAndIsSentAgain) {
  const auto count = fresh("return redis.call('INCR', KEYS[1])");
  const auto name = fresh("redis.call('SET', KEYS[1], ARGV[1]) return ARGV[1]");
  name.load(conn_);  // cached: only `count` meets NOSCRIPT
  ASSERT_FALSE(cached(count));
  const auto scripts = [&] { return std::vector<const redis::Script*>{&count, &name}; };
  int sent = 0;
  const auto replies = redis::pipeline_scripts(conn_, scripts, 3, [&](redis::Connection& c) {
    ++sent;
    name.append(c, {key_ + ":name"}, {"a"});
    count.append(c, {key_ + ":count"}, {});
    name.append(c, {key_ + ":name"}, {"b"});
  });
  EXPECT_EQ(sent, 2) << "sent again after loading";
  ASSERT_EQ(replies.size(), 3U);
  EXPECT_EQ(redis::as_string(*replies[0]), "a");
  EXPECT_EQ(redis::as_integer(*replies[1]), 1) << "the first send never ran it";
  EXPECT_EQ(redis::as_string(*replies[2]), "b");
  EXPECT_TRUE(cached(count));
  // The cached scripts ran in both sends: why callers' scripts must be idempotent.
  EXPECT_EQ(get(key_ + ":name"), "b");
}

TEST_F(RedisScript, APipelineOfCachedScriptsIsSentOnceAndErrorsAreTheCallers) {
  const auto fail = fresh("return redis.error_reply('refused ' .. ARGV[1])");
  const auto echo = fresh("return ARGV[1]");
  fail.load(conn_);
  echo.load(conn_);
  const auto scripts = [&] { return std::vector<const redis::Script*>{&fail, &echo}; };
  int sent = 0;
  const auto replies = redis::pipeline_scripts(conn_, scripts, 2, [&](redis::Connection& c) {
    ++sent;
    fail.append(c, {key_}, {"x"});
    echo.append(c, {key_}, {"y"});
  });
  EXPECT_EQ(sent, 1);
  ASSERT_EQ(replies.size(), 2U);
  EXPECT_TRUE(redis::is_error(*replies[0]));
  EXPECT_EQ(redis::as_string(*replies[0]), "refused x");
  EXPECT_EQ(redis::as_string(*replies[1]), "y");
  // The connection is in step: the next command gets its own reply.
  EXPECT_EQ(get(key_), "(nil)");
}

}  // namespace
}  // namespace petstore::testing
