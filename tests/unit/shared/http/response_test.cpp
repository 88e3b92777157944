#include "http/response.h"

#include <gtest/gtest.h>

#include "error/domain_error.h"
#include "es/errc.h"
#include "json/reader.h"
#include "kafka/handles.h"
#include "redis/connection.h"

namespace petstore::http {
namespace {

template <typename E>
ApiError mapped(E e) {
  return error_from(std::make_exception_ptr(std::move(e)));
}

// Every layer's error type becomes HTTP here and only here: status, code,
// message and Retry-After, as docs/api.md's error table lists them.
TEST(ErrorFrom, WritePathErrorsGetTheirStatusAndRetryAfter) {
  struct Case {
    es::Errc errc;
    int status;
    const char* code;
    std::optional<int> retry_after;
  };
  for (const auto& c : {
           Case{es::Errc::NotReady, 503, "read_model_rebuilding", 1},
           Case{es::Errc::Lagging, 503, "projection_lagging", 1},
           Case{es::Errc::IdempotencyKeyReused, 422, "idempotency_key_reused", std::nullopt},
           Case{es::Errc::RequestInProgress, 409, "request_in_progress", 1},
           Case{es::Errc::Fenced, 503, "writer_fenced", 1},
           Case{es::Errc::NotOwner, 503, "writer_moving", 1},
       }) {
    const auto error = mapped(es::Error(c.errc, "why"));
    EXPECT_EQ(error.status, c.status) << c.code;
    EXPECT_EQ(error.code, c.code);
    EXPECT_EQ(error.retry_after_seconds, c.retry_after) << c.code;
  }
  // The write path's message is the client's, except for a rebuild, whose
  // message says that nothing was written.
  EXPECT_EQ(mapped(es::Error(es::Errc::Lagging, "another request")).message, "another request");
  EXPECT_NE(mapped(es::Error(es::Errc::NotReady, "x")).message.find("nothing was written"),
            std::string::npos);
}

TEST(ErrorFrom, AWritePathRetryAfterWinsOverTheDefault) {
  const auto error = mapped(es::Error(es::Errc::RequestInProgress, "still running", 7));
  EXPECT_EQ(error.status, 409);
  EXPECT_EQ(error.retry_after_seconds, 7);
}

TEST(ErrorFrom, JsonAndDomainRefusals) {
  const auto invalid = mapped(json::Invalid("missing_field", "field 'name' is required"));
  EXPECT_EQ(invalid.status, 400);
  EXPECT_EQ(invalid.code, "missing_field");
  EXPECT_EQ(invalid.message, "field 'name' is required");
  for (const auto& [kind, status] : {std::pair{DomainError::Kind::Invalid, 400},
                                     {DomainError::Kind::NotFound, 404},
                                     {DomainError::Kind::Conflict, 409},
                                     {DomainError::Kind::Unprocessable, 422}}) {
    const auto e = mapped(DomainError(kind, "some_code", "text"));
    EXPECT_EQ(e.status, status);
    EXPECT_EQ(e.code, "some_code");
  }
}

TEST(ErrorFrom, OutagesAre503AndTheRestIs500WithoutDetail) {
  EXPECT_EQ(mapped(redis::Unavailable("down")).code, "store_unavailable");
  // Nothing written: retry later.
  const auto kafka = mapped(kafka::Unavailable("down", false));
  EXPECT_EQ(kafka.status, 503);
  EXPECT_EQ(kafka.code, "broker_unavailable");
  EXPECT_EQ(kafka.retry_after_seconds, 1);
  // Possibly written: the outcome is unknown, and a keyless retry could
  // write twice, so no Retry-After; the same key makes a retry safe.
  const auto maybe = mapped(kafka::Unavailable("timeout", true));
  EXPECT_EQ(maybe.status, 503);
  EXPECT_EQ(maybe.code, "outcome_unknown");
  EXPECT_NE(maybe.message.find("Idempotency-Key"), std::string::npos);
  EXPECT_EQ(maybe.retry_after_seconds, std::nullopt);
  const auto unknown = mapped(es::Error(es::Errc::OutcomeUnknown, "commit timed out").with_aggregate("42"));
  EXPECT_EQ(unknown.code, "outcome_unknown");
  EXPECT_NE(unknown.message.find("look up id 42"), std::string::npos) << unknown.message;
  const auto other = mapped(std::runtime_error("secret detail"));
  EXPECT_EQ(other.status, 500);
  EXPECT_EQ(other.message.find("secret"), std::string::npos);
}

}  // namespace
}  // namespace petstore::http
