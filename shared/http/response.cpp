#include "http/response.h"

#include "error/codes.h"
#include "error/domain_error.h"
#include "es/errc.h"
#include "http/request.h"
#include "json/reader.h"
#include "kafka/handles.h"
#include "log/log.h"
#include "redis/connection.h"

namespace petstore::http {

void send_json(httplib::Response& res, int status, std::string body) {
  res.status = status;
  res.body = std::move(body);
  res.set_header("Content-Type", kJson);
}

void send_json_page(const httplib::Request& req, httplib::Response& res,
                    const std::vector<std::string>& items, std::optional<std::int64_t> next_cursor) {
  std::string body = "[";
  for (const auto& item : items) {
    body += (body.size() > 1 ? "," : "") + item;
  }
  body += "]";
  if (next_cursor) {
    res.set_header("Link", next_link(req, *next_cursor));
  }
  send_json(res, 200, std::move(body));
}

void send_error(httplib::Response& res, const ApiError& error) {
  for (const auto& [name, value] : error.headers) {
    res.set_header(name, value);
  }
  if (error.retry_after_seconds) {
    res.set_header("Retry-After", std::to_string(*error.retry_after_seconds));
  }
  send_json(res, error.status, error.to_json());
}

ApiError error_from(const es::Error& e) {
  auto error = [&]() -> ApiError {
    switch (e.code()) {
      case es::Errc::NotReady:
        return ApiError(503, codes::kReadModelRebuilding,
                        "the read model is being rebuilt from the log; nothing was written, retry later")
            .retry_after(1);
      case es::Errc::Lagging:
        return ApiError(503, codes::kProjectionLagging, e.what()).retry_after(1);
      case es::Errc::IdempotencyKeyReused:
        return {422, codes::kIdempotencyKeyReused, e.what()};
      case es::Errc::RequestInProgress:
        return ApiError(409, codes::kRequestInProgress, e.what()).retry_after(1);
      case es::Errc::Fenced:
        // Another replica owns the aggregate's partition now, or the
        // writer is being claimed anew; nothing was written, and a retry
        // reaches the owner (through the entry point).
        return ApiError(503, codes::kWriterFenced, e.what()).retry_after(1);
      case es::Errc::OutcomeUnknown:
        // No retry advice: without an Idempotency-Key a retry could write
        // twice. The id says what to look up (docs/consistency.md, "Say
        // what happened").
        return ApiError(
            503, codes::kOutcomeUnknown,
            "the event log did not confirm the write, which may or may not be in the log: " +
                std::string(e.what()) +
                (!e.aggregate().empty() ? "; look up id " + e.aggregate() +
                                              " to learn which, or retry with the same Idempotency-Key"
                                        : "; retry with the same Idempotency-Key"));
      case es::Errc::NotOwner:
        // The group is moving the aggregate's partition between replicas.
        return ApiError(503, codes::kWriterMoving, e.what()).retry_after(1);
    }
    return {500, codes::kInternalError, "internal error"};
  }();
  if (const auto seconds = e.retry_after_seconds()) {
    error.retry_after_seconds = seconds;
  }
  return error;
}

ApiError error_from(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const ApiException& e) {
    return e.error();
  } catch (const DomainError& e) {
    static constexpr int kStatus[] = {400, 404, 409, 422, 409};
    ApiError error{kStatus[static_cast<int>(e.kind())], e.code(), e.what()};
    if (e.kind() == DomainError::Kind::NotYet) {
      return std::move(error).retry_after(1);
    }
    return error;
  } catch (const json::Invalid& e) {
    return {400, e.code(), e.what()};
  } catch (const es::Error& e) {
    return error_from(e);
  } catch (const redis::Unavailable& e) {
    log::warn("redis unavailable: {}", e.what());
    return ApiError(503, codes::kStoreUnavailable, "the read model store is unavailable; retry later")
        .retry_after(1);
  } catch (const redis::CommandError& e) {
    // Redis is there and refused a command with an error reply (OOM under
    // maxmemory, READONLY after a failover, MISCONF, a key of the wrong
    // type). Nothing reaches here after a commit (projection::OwnEvents
    // answers for a committed event), so nothing was written.
    log::warn("redis refused a command: {}", e.what());
    return ApiError(503, codes::kStoreRefused,
                    "the read model store refused the request's command; nothing was written, retry later")
        .retry_after(1);
  } catch (const kafka::Unavailable& e) {
    log::warn("kafka unavailable: {}", e.what());
    if (e.possibly_persisted()) {
      return {
          503, codes::kOutcomeUnknown,
          "the event log did not confirm the write, which may or may not be in the log; retry with the same "
          "Idempotency-Key"};
    }
    return ApiError(503, codes::kBrokerUnavailable,
                    "the event log is unavailable; nothing was written, retry later")
        .retry_after(1);
  } catch (const std::exception& e) {
    log::error("unhandled error: {}", e.what());
    return ApiError(500, codes::kInternalError, "internal error");
  } catch (...) {
    log::error("unhandled non-standard exception");
    return ApiError(500, codes::kInternalError, "internal error");
  }
}

std::string etag(std::int64_t version) {
  return "\"" + std::to_string(version) + "\"";
}

}  // namespace petstore::http
