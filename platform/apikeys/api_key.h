#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::apikeys {

// What the server knows of a presented key: never the key itself. The id is
// the first 16 hex digits of the key's SHA-256 and names the key in the admin
// API, in the Redis record and, as its hash tag, in every rate-limit key; the
// full digest in the record proves the presented key is the issued one.
struct KeyIdentity {
  std::string id;
  std::string digest;
};

// A new key: "psk_" and 32 hex digits from the system's CSPRNG (128 bits).
std::string generate_key();

// Hashes a presented key; nullopt when it is not shaped like one of ours (so
// a malformed header costs no Redis round trip).
std::optional<KeyIdentity> identify(std::string_view presented);

// True when `id` is shaped like an id identify() returns.
bool is_key_id(std::string_view id);

// An id's 64 bits, as the keys topic's single writer numbers its
// aggregates (apikeys/writer.h), and back to its 16 hex digits. `id` must
// be shaped as is_key_id() says.
std::int64_t id_bits(std::string_view id);
std::string id_text(std::int64_t bits);

// "<prefix>:apikey:{<id>}": the key's record (a hash).
std::string record_key(const std::string& prefix, const std::string& id);

}  // namespace petstore::apikeys
