#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "http/client_address.h"
#include "http/forwarder.h"
#include "http/router.h"
#include "projection/reactor.h"

namespace petstore::service {

// Runs a reaction's steps where their aggregates are written. A saga step
// is a command on one of the service's aggregates, and only the owner of
// that aggregate's partition may append to it (es::AggregateWriter); the
// reactor that reads the upstream event runs wherever its consumer group
// put the upstream partition, which is another matter (the orders topic is
// keyed by order, the inventory topic by pet). So a step that fails with
// es::Errc::NotOwner and an owner hint is relayed to that owner, the record
// framed as the log holds it (kafka/message_frame.h), and is done when the
// owner answers 204. Anything else throws: the reactor retries, and the
// step, idempotent against the owner's fold, does nothing twice.
class ReactionRelay final : public projection::Reaction {
 public:
  // `purpose` names the reaction on every replica (its consumer group's).
  ReactionRelay(std::string purpose, projection::Reaction& local, const http::Forwarder& forwarder)
      : purpose_(std::move(purpose)), local_(local), forwarder_(forwarder) {}

  void handle(const kafka::Message& message) override;
  // The local reaction's begin where this replica owns the step's
  // aggregate; a relayed step is handled in full by its owner.
  Rest begin(const kafka::Message& message) override;
  std::string affinity(const kafka::Message& message) override { return local_.affinity(message); }
  // The local reaction's, as they are: a step another replica owns fails
  // with NotOwner there, and the reactor hands it to begin() on its own,
  // which relays it.
  [[nodiscard]] bool begins_together() const override { return local_.begins_together(); }
  BegunEach begin_each(const std::vector<Step>& steps) override { return local_.begin_each(steps); }
  [[nodiscard]] std::chrono::milliseconds gather() const override { return local_.gather(); }

  // Where a replica takes its peers' relayed steps.
  static std::string path(const std::string& purpose) { return "/internal/reactions/" + purpose; }

 private:
  std::string purpose_;
  projection::Reaction& local_;
  const http::Forwarder& forwarder_;
};

// The owner's end: POST /internal/reactions/{purpose} hands the framed
// record to the named local reaction, and answers 204 once it is handled.
// Only a trusted peer's relay is heard (http::Forwarder's header from a
// TRUSTED_PROXIES address; nginx strips the header and refuses the path):
// anyone else gets 404 route_not_found, as for a path that does not exist.
// The step's own errors become Error objects at the edge as any command's
// (es::Errc::NotOwner: 503 writer_moving, never relayed a second time).
// `reactions` is filled before the replica listens (Platform::react).
void add_reaction_route(http::Router& router, const std::map<std::string, projection::Reaction*>& reactions,
                        const http::TrustedProxies& trusted);

}  // namespace petstore::service
