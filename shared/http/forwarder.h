#pragma once

#include <chrono>
#include <exception>
#include <optional>
#include <string>

#include <httplib.h>

#include "http/client_address.h"

namespace petstore::http {

// Sends a command on to the replica that owns its aggregate's partition
// (es::Errc::NotOwner with an owner hint, docs/consistency.md) and relays
// the owner's answer. One hop at most: a forwarded request carries
// kForwardedHeader, and its owner answers it itself, whatever it finds.
class Forwarder {
 public:
  static constexpr const char* kForwardedHeader = "X-Petstore-Forwarded";
  // When the owner must have begun a forwarded request (Unix time, ms). A
  // request that reaches it later was given up on: an owner that was paused
  // (SIGSTOP, a long GC-like stall) finds its peers' forwards queued in its
  // sockets when it resumes, and their clients were answered 503 long ago.
  // Running them then would write what the client was told was not written
  // (pets_consistency_test, AnOwnerPausedPastItsSessionIsFencedOrForwardedWhenItResumes).
  // The owner's and the forwarder's clocks are compared: replicas keep them
  // within a small part of start_within (NTP), as every Kafka deployment does.
  static constexpr const char* kDeadlineHeader = "X-Petstore-Forward-Deadline";

  struct Settings {
    std::chrono::milliseconds connect_timeout{300};
    // How long after sending the owner may still begin the request.
    std::chrono::milliseconds start_within{2000};
    // Bounds the owner's whole answer: start_within, then its wait for the
    // partition and its append and commit. A write given up on after that
    // answers 503 outcome_unknown: the owner began it late (and refused
    // it) or not at all, unless its process froze in the middle of the
    // append itself, and only the log can tell which.
    std::chrono::milliseconds read_timeout{10000};
    // Bounds a relayed reaction step's answer (send): a step is idempotent
    // and its reactor retries it, so a paused owner holds the reactor up
    // this long, not read_timeout.
    std::chrono::milliseconds relay_timeout{5000};
    std::string self;  // this replica's base URL, named in kForwardedHeader
  };

  explicit Forwarder(Settings settings) : settings_(std::move(settings)) {}

  // Whether `req` may be forwarded: it was not forwarded already.
  [[nodiscard]] static bool may_forward(const httplib::Request& req) {
    return !req.has_header(kForwardedHeader);
  }

  // Sends `req` to `owner_url` and writes the answer into `res`. False when
  // the owner could not be reached or did not answer in time: the caller
  // answers for itself (503 writer_moving). Keeps one kept-alive
  // connection per owner and worker thread.
  bool forward(const httplib::Request& req, httplib::Response& res, const std::string& owner_url) const;

  // Sends a request of this replica's own to `owner_url` (a reaction step
  // relayed to its owner, service::ReactionRelay), marked forwarded: the
  // owner's status, or nullopt when it could not be reached or did not
  // answer in time. `answer` receives the body.
  std::optional<int> send(const std::string& owner_url, const std::string& path, const std::string& body,
                          const std::string& content_type, std::string* answer = nullptr) const;

  // Whether `req` was forwarded and reaches this owner after the forwarder's
  // deadline (kDeadlineHeader), or with a deadline that is no number: it
  // must not run. Requests without the header (not forwarded) never expire.
  [[nodiscard]] static bool expired(const httplib::Request& req, std::chrono::system_clock::time_point now);

  // A Router::rescue: a command that failed with es::Errc::NotOwner and an
  // owner hint, and was not forwarded already, goes on to the owner.
  bool rescue(const httplib::Request& req, httplib::Response& res, const std::exception_ptr& failure) const;

  // A request forwarded by a peer the replica trusts (TRUSTED_PROXIES): the
  // forwarding replica has charged it to its client already.
  static bool forwarded_by_trusted(const httplib::Request& req, const TrustedProxies& trusted) {
    return req.has_header(kForwardedHeader) && trusted.contains(req.remote_addr);
  }

 private:
  // One kept-alive client per owner and thread: httplib::Client serialises
  // its requests on one connection, and a thread sends one at a time.
  httplib::Client& client_for(const std::string& owner_url) const;
  static void drop_client(const std::string& owner_url);
  // kDeadlineHeader's value for a request sent now.
  [[nodiscard]] std::string deadline() const;

  Settings settings_;
};

}  // namespace petstore::http
