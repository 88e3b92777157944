#pragma once

// Every error code shared by all services. Service-specific codes live beside
// the service's domain; the README's table lists both.
namespace petstore::codes {

inline constexpr const char* kBadRequest = "bad_request";
inline constexpr const char* kMalformedJson = "malformed_json";
inline constexpr const char* kMissingField = "missing_field";
inline constexpr const char* kInvalidType = "invalid_type";
inline constexpr const char* kInvalidValue = "invalid_value";
inline constexpr const char* kUnknownField = "unknown_field";
inline constexpr const char* kReadOnlyField = "read_only_field";
inline constexpr const char* kInvalidId = "invalid_id";
inline constexpr const char* kInvalidQuantity = "invalid_quantity";
inline constexpr const char* kInvalidQuery = "invalid_query";
inline constexpr const char* kInvalidHeader = "invalid_header";
inline constexpr const char* kPayloadTooLarge = "payload_too_large";
inline constexpr const char* kUnsupportedMediaType = "unsupported_media_type";
inline constexpr const char* kRouteNotFound = "route_not_found";
inline constexpr const char* kMethodNotAllowed = "method_not_allowed";
inline constexpr const char* kPreconditionFailed = "precondition_failed";
inline constexpr const char* kIdempotencyKeyReused = "idempotency_key_reused";
inline constexpr const char* kRequestInProgress = "request_in_progress";
inline constexpr const char* kBrokerUnavailable = "broker_unavailable";
inline constexpr const char* kStoreUnavailable = "store_unavailable";
inline constexpr const char* kStoreRefused = "store_refused";
inline constexpr const char* kProjectionLagging = "projection_lagging";
inline constexpr const char* kWriterFenced = "writer_fenced";
inline constexpr const char* kOutcomeUnknown = "outcome_unknown";
inline constexpr const char* kWriterMoving = "writer_moving";
inline constexpr const char* kReadModelRebuilding = "read_model_rebuilding";
inline constexpr const char* kDependencyUnavailable = "dependency_unavailable";
inline constexpr const char* kInternalError = "internal_error";
inline constexpr const char* kOverloaded = "overloaded";
// API keys, the admin API and the rate limiter.
inline constexpr const char* kApiKeyMissing = "api_key_missing";
inline constexpr const char* kApiKeyInvalid = "api_key_invalid";
inline constexpr const char* kApiKeyRevoked = "api_key_revoked";
inline constexpr const char* kApiKeyNotFound = "api_key_not_found";
inline constexpr const char* kAdminTokenMissing = "admin_token_missing";
inline constexpr const char* kAdminTokenInvalid = "admin_token_invalid";
inline constexpr const char* kAdminApiDisabled = "admin_api_disabled";
inline constexpr const char* kRateLimited = "rate_limited";
inline constexpr const char* kRateLimitBanned = "rate_limit_banned";
inline constexpr const char* kRateLimiterUnavailable = "rate_limiter_unavailable";

}  // namespace petstore::codes
