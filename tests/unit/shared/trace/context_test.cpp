#include "trace/context.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace petstore::trace {
namespace {

// The specification's own example (W3C Trace Context, section 3.2.2.1).
constexpr const char* kExample = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST(TraceContext, ParsesAValidTraceparentAndWritesItBackTheSame) {
  const auto c = parse(kExample, "congo=t61rcWkgMzE");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(c->span_id, "00f067aa0ba902b7");
  EXPECT_EQ(c->flags, kSampled);
  EXPECT_EQ(c->tracestate, "congo=t61rcWkgMzE");
  EXPECT_EQ(c->traceparent(), kExample);
}

TEST(TraceContext, RefusesWhatTheSpecificationCallsInvalid) {
  for (const std::string& bad : std::vector<std::string>{
           "",
           "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",    // short
           "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",  // version 00 has no more
           "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // version ff
           "00-00000000000000000000000000000000-00f067aa0ba902b7-01",   // zero trace id
           "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",   // zero parent id
           "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",   // upper case
           "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // separator
           "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",   // not hex
           "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // version not hex
           "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",  // later version, no dash
       }) {
    EXPECT_FALSE(parse(bad)) << bad;
  }
}

TEST(TraceContext, ReadsALaterVersionAsVersion00) {
  const auto c = parse("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-later");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->traceparent(), kExample);
}

TEST(TraceContext, DropsAnInvalidTracestateAndKeepsTheTraceparent) {
  for (const std::string& bad : std::vector<std::string>{"no-equals", "=value", "key=", "Upper=1", "k=a,b",
                                                         std::string(600, 'a') + "=1"}) {
    const auto c = parse(kExample, bad);
    ASSERT_TRUE(c) << bad;
    EXPECT_EQ(c->tracestate, "") << bad;
  }
  std::string members;
  for (int i = 0; i < 33; ++i) {
    members += (i == 0 ? "" : ",") + std::string("k") + std::to_string(i) + "=v";
  }
  EXPECT_EQ(parse(kExample, members)->tracestate, "") << "at most 32 members";
  EXPECT_EQ(parse(kExample, " a=1 ,, b@vendor=x y ")->tracestate, " a=1 ,, b@vendor=x y ");
}

TEST(TraceContext, ANewTraceAndItsChildrenAreValidAndDistinct) {
  const auto root = start();
  ASSERT_TRUE(parse(root.traceparent())) << root.traceparent();
  EXPECT_EQ(root.flags, kSampled);
  std::set<std::string> spans{root.span_id};
  for (int i = 0; i < 100; ++i) {
    const auto c = child(root);
    EXPECT_EQ(c.trace_id, root.trace_id);
    EXPECT_TRUE(parse(c.traceparent()));
    spans.insert(c.span_id);
  }
  EXPECT_EQ(spans.size(), 101U);
  EXPECT_NE(start().trace_id, root.trace_id);
}

TEST(TraceContext, ASeededSpanIsTheSameForTheSameSeedAndParent) {
  const auto parent = *parse(kExample, "a=1");
  const auto a = child(parent, "inventory/petstore.orders.v1/3/41");
  EXPECT_EQ(a.trace_id, parent.trace_id);
  EXPECT_EQ(a.tracestate, "a=1");
  EXPECT_EQ(a.span_id, child(parent, "inventory/petstore.orders.v1/3/41").span_id);
  EXPECT_NE(a.span_id, child(parent, "inventory/petstore.orders.v1/3/42").span_id);
  EXPECT_NE(a.span_id, parent.span_id);
  const auto fresh = start("orders/petstore.orders.v1/0/7");
  EXPECT_TRUE(parse(fresh.traceparent()));
  EXPECT_EQ(fresh.trace_id, start("orders/petstore.orders.v1/0/7").trace_id);
}

TEST(TraceContext, AScopeMakesItsContextCurrentAndRestoresTheOneBefore) {
  EXPECT_EQ(current(), nullptr);
  {
    const Scope outer(start());
    const auto outer_trace = current()->trace_id;
    {
      const Scope inner(child(*current()));
      EXPECT_EQ(current()->trace_id, outer_trace);
    }
    EXPECT_EQ(current()->trace_id, outer_trace);
  }
  EXPECT_EQ(current(), nullptr);
}

}  // namespace
}  // namespace petstore::trace
