// The rules of key management, decided with the shared apikeys code that
// writes the events (apikeys/events.h): a key is issued at version 1 and
// only then; nothing follows its revocation (a second revocation appends
// nothing, and a revoked key cannot be re-planned); and each event decodes
// as the admin API would have written it (a fixed plan with its own limits,
// a digest that starts with the id).
#include <stdexcept>
#include <unordered_map>

#include "apikeys/events.h"
#include "kind_module.h"

namespace petstore::audit {
namespace {

class ApiKeysChecker final : public KindChecker {
 public:
  explicit ApiKeysChecker(SagaFacts& /*saga*/) {}  // keys take no part in the saga
  void on_event(const AuditEvent& e, Findings& out) override {
    apikeys::KeyEvent event;
    try {
      event = apikeys::decode(e.type, e.data);
    } catch (const std::invalid_argument& ex) {
      report(out, e, "undecodable", ex.what());
      return;
    }
    const auto& id = apikeys::subject_of(event);
    const bool issued = std::holds_alternative<apikeys::KeyIssued>(event);
    if (issued != (e.version == 1)) {
      report(out, e, "creation_not_first",
             "key " + id + ": " +
                 (issued ? "issued at version " + std::to_string(e.version)
                         : std::string("version 1 is not an issue")));
    }
    auto& revoked = revoked_[e.subject];
    if (revoked) {
      report(out, e, "after_revocation", "key " + id + ": " + e.type + " after the key was revoked");
      return;
    }
    revoked = std::holds_alternative<apikeys::KeyRevoked>(event);
  }

 private:
  std::unordered_map<std::int64_t, bool> revoked_;
};

}  // namespace

const CheckModule& keys_checks() {
  static const CheckModule kChecks{{{.name = "apikey",
                                     .topic = "petstore.apikeys.v1",
                                     .target_flag = "--key",
                                     .source = "",
                                     .id_member = "keyId",
                                     .subject = SubjectForm::KeyId,
                                     .creates_id = false,
                                     .own_history = true,
                                     .references = {}}},
                                   make_checker<ApiKeysChecker>};
  return kChecks;
}

}  // namespace petstore::audit
