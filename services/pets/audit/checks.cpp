// The pets service in the audit's checks (kind_module.h): its two kinds,
// and their rules, decided with the service's own domain: its decoding
// (pets/domain/events.h), fold (pets/domain/evolve.h) and life cycle
// (pets/domain/status_machine.h).
#include <stdexcept>
#include <unordered_map>

#include "kind_module.h"
#include "pets/domain/events.h"
#include "pets/domain/evolve.h"
#include "pets/domain/status_machine.h"
#include "util/overloaded.h"

namespace petstore::pets {
namespace {

using audit::AuditEvent;
using audit::Findings;
using audit::report;

struct Life {
  bool deleted = false;
  std::optional<PetStatus> status;  // pets only
};

constexpr auto kDecode = [](std::string_view type, const auto& data) { return decode(type, data); };

class PetsChecker final : public audit::DecodingChecker<kDecode> {
 public:
  using DecodingChecker::DecodingChecker;

 private:
  void check(const AuditEvent& e, const Event& event, Findings& out) override {
    auto& life = lives_[{audit::info(e.kind).name == "category", e.subject}];
    if (life.deleted) {
      report(out, e, "after_deletion", std::string(e.type) + " after the aggregate's deletion");
      return;
    }
    const bool creation =
        std::holds_alternative<PetCreated>(event) || std::holds_alternative<CategoryCreated>(event);
    if (creation != (e.version == 1)) {
      report(out, e, "creation_not_first",
             creation ? "a creation at version " + std::to_string(e.version) : "version 1 is not a creation");
    }
    std::visit(Overloaded{
                   [&](const PetCreated& c) {
                     life.status = c.status;
                     auto& pet = saga().pets[e.subject];
                     pet.created = true;
                     pet.created_at = e.at;
                     pet.created_timestamp_ms = e.timestamp_ms;
                   },
                   [&](const PetUpdated& u) { step(e, life, life.status.value_or(u.status), u.status, out); },
                   [&](const PetStatusChanged& s) {
                     if (life.status && *life.status != s.from) {
                       report(out, e, "status_mismatch",
                              "changes from " + std::string(to_string(s.from)) + " but the pet is " +
                                  std::string(to_string(*life.status)));
                     }
                     step(e, life, s.from, s.to, out);
                   },
                   [&](const auto& other) {
                     if constexpr (std::is_same_v<std::decay_t<decltype(other)>, PetDeleted> ||
                                   std::is_same_v<std::decay_t<decltype(other)>, CategoryDeleted>) {
                       life.deleted = true;
                     }
                   },
               },
               event);
  }

  static void step(const AuditEvent& e, Life& life, PetStatus from, PetStatus to, Findings& out) {
    if (from != to && !can_transition(from, to)) {
      report(
          out, e, "illegal_transition",
          std::string(to_string(from)) + " -> " + std::string(to_string(to)) + " breaks the pet life cycle");
    }
    life.status = to;
  }

  struct KeyHash {
    size_t operator()(const std::pair<bool, std::int64_t>& k) const noexcept {
      return std::hash<std::int64_t>()(k.second) ^ static_cast<size_t>(k.first);
    }
  };
  std::unordered_map<std::pair<bool, std::int64_t>, Life, KeyHash> lives_;
};

}  // namespace

const audit::CheckModule& audit_checks() {
  static const audit::CheckModule kChecks{{
                                              {.name = "pet",
                                               .topic = "petstore.pets.v1",
                                               .target_flag = "--pet",
                                               .source = "/petstore/pets",
                                               .id_member = "id",
                                               .subject = audit::SubjectForm::StoreId,
                                               .creates_id = true,
                                               .own_history = true,
                                               .references = {{"category", "categoryId"}}},
                                              {.name = "category",
                                               .topic = "petstore.categories.v1",
                                               .target_flag = "--category",
                                               .source = "/petstore/pets",
                                               .id_member = "id",
                                               .subject = audit::SubjectForm::StoreId,
                                               .creates_id = true,
                                               .own_history = true,
                                               .references = {{"pet", "pets.petId"}}},
                                          },
                                          audit::make_checker<PetsChecker>};
  return kChecks;
}

}  // namespace petstore::pets
