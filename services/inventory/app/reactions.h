#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "es/catch_up.h"
#include "es/event_log.h"
#include "inventory/app/ledgers.h"
#include "projection/reactor.h"

namespace petstore::inventory {

// Mirrors the pets catalogue into the ledgers: a new pet gets an entry with
// no stock, a status change follows, a deleted pet's entry leaves the lists.
class PetsReaction : public projection::Reaction {
 public:
  explicit PetsReaction(Ledgers& ledger) : ledger_(ledger) {}
  void handle(const kafka::Message& message) override;
  // A pet's next event is decided once this one is delivered; its commit
  // runs meanwhile.
  Rest begin(const kafka::Message& message) override;
  // The pet: one pet's events in order, different pets side by side. By
  // partition, a batch's new pets were mirrored one after another, each
  // waiting for its delivery report, and the mirror fell behind POST /pets.
  std::string affinity(const kafka::Message& message) override;
  // A batch's new pets mostly share a partition of the inventory topic
  // (creates stick to one, es::AggregateWriter::kCreatesPerPartition): their
  // ledgers are begun together, under one hold and one wait for the
  // delivery reports (Ledgers::begin_each), on the reactor's thread instead
  // of a thread each (docs/performance.md, "Levers").
  [[nodiscard]] bool begins_together() const override { return true; }
  BegunEach begin_each(const std::vector<Step>& steps) override;
  // No client waits for a new pet's ledger, and each batch is a
  // transaction of the ledgers' writer, whose fixed cost dwarfs a record's
  // (docs/performance.md, "Records per transaction"): under load a batch
  // gathers the pets that a window brings. An order for a pet not yet
  // mirrored waits for the mirror (OrdersReaction), a window longer at most.
  [[nodiscard]] std::chrono::milliseconds gather() const override { return kGather; }
  static constexpr std::chrono::milliseconds kGather{50};

 private:
  Ledgers& ledger_;
};

// The inventory's side of the order saga: reserve or refuse on placement,
// release on cancellation, consume on completion.
class OrdersReaction : public projection::Reaction {
 public:
  // `pets_seen` waits on the pets reaction's committed positions;
  // `pets_topic` and `log` locate the partition of a pet's events.
  OrdersReaction(Ledgers& ledger, es::GroupCatchUp& pets_seen, es::EventLog& log, std::string pets_topic)
      : ledger_(ledger), pets_seen_(pets_seen), log_(log), pets_topic_(std::move(pets_topic)) {}
  void handle(const kafka::Message& message) override;
  // A placement's reservation is committed while the pet's next order is
  // decided (a hot pet's orders follow one another by a delivery report).
  Rest begin(const kafka::Message& message) override;
  // The pet's ledger: orders of many partitions reach one pet.
  std::string affinity(const kafka::Message& message) override;

 private:
  Ledgers& ledger_;
  es::GroupCatchUp& pets_seen_;
  es::EventLog& log_;
  std::string pets_topic_;
};

}  // namespace petstore::inventory
