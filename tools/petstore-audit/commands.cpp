#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>

#include "json/parse.h"
#include "json/writer.h"
#include "kind_module.h"
#include "progress.h"
#include "rebuild/compare.h"
#include "rebuild/redis_space.h"
#include "text/utf8.h"
#include "verify.h"
#include "view_module.h"

namespace petstore::audit {

namespace {

std::vector<std::string> topic_list(const Topics& t) {
  std::vector<std::string> out;
  out.reserve(t.names.size());
  for (const auto& [kind, name] : t.names) {
    out.push_back(name);
  }
  return out;
}

// Opens the log, learns the partition counts, and reads every record;
// returns the seconds the reading took.
template <typename OnRecord, typename OnStart = void (*)(std::int64_t)>
double read_log(
    const Options& o, Topics& topics, const char* label, OnRecord on_record,
    OnStart on_start = [](std::int64_t) {}) {
  LogReader reader(o.brokers, topic_list(o.topics), o.bounds);
  on_start(reader.expected());
  for (const auto& [kind, name] : topics.names) {
    topics.partitions[name] = reader.partitions(name);
  }
  Progress progress(label, reader.expected(), o.progress);
  reader.read(on_record, &progress);
  progress.finish();
  return progress.seconds();
}

void print_findings_text(const VerifyReport& r, double seconds) {
  std::int64_t events = 0;
  std::printf("petstore-audit verify: %lld records read in %.1f s", static_cast<long long>(r.records),
              seconds);
  std::string per_kind;
  for (const auto& [kind, n] : r.events) {
    events += n;
    per_kind += std::string(per_kind.empty() ? "" : ", ") + to_string(kind) + " " + std::to_string(n) + " (" +
                std::to_string(r.aggregates.count(kind) != 0 ? r.aggregates.at(kind) : 0) + " aggregates)";
  }
  std::printf("; %lld valid events: %s\n", static_cast<long long>(events), per_kind.c_str());
  for (const auto& [type, n] : r.types) {
    std::printf("  %-44s %lld\n", type.c_str(), static_cast<long long>(n));
  }
  for (const auto& p : r.pending) {
    std::printf("pending order %lld, placed %s (%s), %.1f s ago\n", static_cast<long long>(p.id),
                p.placed_time.c_str(), p.at.str().c_str(), static_cast<double>(p.age.count()) / 1000);
  }
  for (const auto& step : r.steps) {
    std::printf("pending %s %lld: %s (%s), %.1f s ago\n", std::string(rule_of(step.what)).c_str(),
                static_cast<long long>(step.subject), std::string(describe(step.what)).c_str(),
                step.since.str().c_str(), static_cast<double>(step.age.count()) / 1000);
  }
  for (const auto& c : r.copies) {
    std::printf(
        "COPY at %s event %s subject %lld: the record at offset %lld again, byte for byte (counted once)\n",
        c.at.str().c_str(), c.event_id.c_str(), static_cast<long long>(c.subject),
        static_cast<long long>(c.original_offset));
  }
  for (const auto& f : r.findings) {
    std::printf("VIOLATION %s at %s event %s subject %lld: %s\n", f.rule.c_str(), f.at.str().c_str(),
                f.event_id.empty() ? "-" : f.event_id.c_str(), static_cast<long long>(f.subject),
                f.detail.c_str());
  }
  std::printf("%zu violation%s, %zu pending order%s, %zu pending step%s", r.findings.size(),
              r.findings.size() == 1 ? "" : "s", r.pending.size(), r.pending.size() == 1 ? "" : "s",
              r.steps.size(), r.steps.size() == 1 ? "" : "s");
  if (!r.copies.empty()) {
    std::printf(", %zu record%s written twice (not a violation: docs/audit.md)", r.copies.size(),
                r.copies.size() == 1 ? "" : "s");
  }
  std::printf("\n");
}

void print_findings_json(const VerifyReport& r) {
  json::Writer w;
  w.begin_object().field("records", r.records);
  w.key("events").begin_object();
  for (const auto& [kind, n] : r.events) {
    w.field(to_string(kind), n);
  }
  w.end_object().key("aggregates").begin_object();
  for (const auto& [kind, n] : r.aggregates) {
    w.field(to_string(kind), n);
  }
  w.end_object().key("types").begin_object();
  for (const auto& [type, n] : r.types) {
    w.field(type, n);
  }
  w.end_object().key("violations").begin_array();
  for (const auto& f : r.findings) {
    w.begin_object().field("rule", f.rule).field("topic", f.at.topic);
    w.field("partition", static_cast<std::int64_t>(f.at.partition)).field("offset", f.at.offset);
    w.field("eventId", f.event_id).field("subject", f.subject).field("detail", f.detail).end_object();
  }
  w.end_array().key("copies").begin_array();
  for (const auto& c : r.copies) {
    w.begin_object().field("topic", c.at.topic).field("partition", static_cast<std::int64_t>(c.at.partition));
    w.field("offset", c.at.offset).field("originalOffset", c.original_offset);
    w.field("eventId", c.event_id).field("subject", c.subject).end_object();
  }
  w.end_array().key("pending").begin_array();
  for (const auto& p : r.pending) {
    w.begin_object().field("orderId", p.id).field("placed", p.placed_time).field("topic", p.at.topic);
    w.field("partition", static_cast<std::int64_t>(p.at.partition)).field("offset", p.at.offset);
    w.field("ageMs", static_cast<std::int64_t>(p.age.count())).end_object();
  }
  w.end_array().key("pendingSteps").begin_array();
  for (const auto& step : r.steps) {
    w.begin_object().field("rule", rule_of(step.what)).field("subject", step.subject);
    w.field("topic", step.since.topic).field("partition", static_cast<std::int64_t>(step.since.partition));
    w.field("offset", step.since.offset)
        .field("ageMs", static_cast<std::int64_t>(step.age.count()))
        .end_object();
  }
  w.end_array().end_object();
  std::cout << w.finish() << '\n';
}

// Whether `object` names `id` in `member`: "a" its member a, "a.b" the
// member b of an object of its array a.
bool names(const rapidjson::Value& object, std::string_view member, std::int64_t id) {
  const auto dot = member.find('.');
  const std::string head(member.substr(0, dot));
  const auto it = object.FindMember(head.c_str());
  if (it == object.MemberEnd()) {
    return false;
  }
  if (dot == std::string_view::npos) {
    return it->value.IsInt64() && it->value.GetInt64() == id;
  }
  return it->value.IsArray() && std::ranges::any_of(it->value.GetArray(), [&](const rapidjson::Value& v) {
           return v.IsObject() && names(v, member.substr(dot + 1), id);
         });
}

// Whether a valid event names `id` in the member `member` of its data.
bool data_mentions(const AuditEvent& e, std::string_view member, std::int64_t id) {
  rapidjson::Document doc;
  if (json::parse(e.data, doc) || !doc.IsObject()) {
    return false;
  }
  return names(doc, member, id);
}

// Whether the event is one of the aggregate's own, or names it
// (KindInfo::references): a pet's history holds its stock ledger's and its
// orders' events, a category's the pets filed under it.
bool mentions(const AuditEvent& e, Kind kind, std::int64_t id) {
  if (e.kind == kind) {
    return e.subject == id;
  }
  return std::ranges::any_of(info(e.kind).references, [&](const Reference& r) {
    return r.kind == info(kind).name && (r.member.empty() ? e.subject == id : data_mentions(e, r.member, id));
  });
}

// Collects the valid events that pass `keep`, in the order of their time,
// then of their position; says on standard error how many records were not
// valid events.
template <typename Keep>
std::vector<AuditEvent> collect(const Options& o, const char* label, Keep keep) {
  Topics topics = o.topics;
  std::int64_t invalid = 0;
  const auto& schemas = SchemaRegistry::contract();
  std::vector<AuditEvent> out;
  Findings ignored;
  read_log(o, topics, label, [&](const kafka::Message& m, std::int64_t ts) {
    ignored.clear();
    rapidjson::Document data;
    auto e = check_record(m, ts, topics, schemas, ignored, data);
    if (!e) {
      ++invalid;
    } else if (keep(*e)) {
      e->parsed = nullptr;  // kept beyond `data`
      out.push_back(std::move(*e));
    }
  });
  std::stable_sort(out.begin(), out.end(), [](const AuditEvent& a, const AuditEvent& b) {
    if (a.timestamp_ms != b.timestamp_ms) {
      return a.timestamp_ms < b.timestamp_ms;
    }
    return a.at.topic != b.at.topic ? a.at.topic < b.at.topic : a.at.offset < b.at.offset;
  });
  if (invalid > 0) {
    std::fprintf(stderr, "petstore-audit: %lld records are not valid events and are left out (run verify)\n",
                 static_cast<long long>(invalid));
  }
  return out;
}

}  // namespace

int run_verify(const Options& o) {
  Topics topics = o.topics;
  VerifyOptions options;
  options.max_pending_age = o.max_pending_age;
  Verifier verifier(topics, options);
  const double seconds = read_log(
      o, topics, "verify", [&](const kafka::Message& m, std::int64_t ts) { verifier.add(m, ts); },
      [&](std::int64_t expected) { verifier.reserve(expected); });
  const auto report = verifier.finish();
  if (o.json) {
    print_findings_json(report);
  } else {
    print_findings_text(report, seconds);
  }
  return report.findings.empty() ? 0 : 1;
}

namespace {

// The positions ("<topic>:<partition>" -> offset) a read model has applied.
std::map<std::string, std::int64_t> positions(redis::Connection& conn, const std::string& key) {
  std::map<std::string, std::int64_t> out;
  const auto reply = conn.command({"HGETALL", key});
  const auto& r = redis::expect_ok(reply);
  for (std::size_t i = 0; i + 1 < r.elements; i += 2) {
    const auto field = redis::as_string(*r.element[i]);
    out[std::string(field)] =
        std::strtoll(std::string(redis::as_string(*r.element[i + 1])).c_str(), nullptr, 10);
  }
  return out;
}

// Where the live read models stand against the rebuilt ones: the positions
// the live projection has not reached yet ("behind"), and whether it has
// applied records appended after the rebuild read the log ("ahead").
struct Lag {
  std::vector<std::string> behind;
  bool ahead = false;
};

// The rebuild's own positions, per service: fixed once the fold is done;
// and whose live positions each is compared with.
using Positions = std::map<std::string, std::map<std::string, std::int64_t>>;

Lag lag(redis::Connection& conn, const Positions& rebuilt, const std::map<std::string, std::string>& live_of,
        const Options& o) {
  Lag out;
  for (const auto& [service, reached] : rebuilt) {
    const auto live_at = positions(conn, es::KeySpace(o.prefix, live_of.at(service)).offsets());
    for (const auto& [field, offset] : reached) {
      const auto it = live_at.find(field);
      const auto at = it == live_at.end() ? -1 : it->second;
      if (at < offset) {
        std::string line = service;
        line += " " + field + " at " + std::to_string(at) + " of " + std::to_string(offset);
        out.behind.push_back(std::move(line));
      } else if (at > offset) {
        out.ahead = true;
      }
    }
  }
  return out;
}

}  // namespace

int run_rebuild(const Options& o) {
  redis::Connection conn(o.redis);
  std::vector<ReadModel> rebuilt;
  for (const auto* view : view_modules()) {
    rebuilt.push_back(view->read_model(o.into));
  }
  const auto clear_rebuilt = [&] {
    std::int64_t n = 0;
    for (const auto& m : rebuilt) {
      n += clear_space(conn, es::KeySpace(o.into, m.service).base());
      if (!m.data_stem.empty()) {
        n += clear_space(conn, m.data_base(o.into));
      }
    }
    return n;
  };
  const std::int64_t cleared = clear_rebuilt();
  if (cleared > 0) {
    std::fprintf(stderr, "petstore-audit: deleted %lld keys of an earlier rebuild under %s\n",
                 static_cast<long long>(cleared), o.into.c_str());
  }

  // Every record goes through the services' own projection path, in
  // batches on one pipeline, as the services' Runner applies them.
  projection::ByTopic by_topic;
  for (const auto& k : kinds()) {
    const auto* view = view_of(k.kind);
    if (view == nullptr) {
      throw std::logic_error(std::string("no read model folds the ") + to_string(k.kind) + " kind");
    }
    const auto index = std::ranges::find(view_modules(), view) - view_modules().begin();
    by_topic.add(o.topics.names.at(k.kind), *rebuilt.at(static_cast<std::size_t>(index)).applier);
  }
  constexpr std::size_t kBatch = 1000;
  std::vector<kafka::Message> batch;
  batch.reserve(kBatch);
  std::int64_t applied = 0;
  projection::Applied positions_here;
  const auto apply = [&] {
    if (!projection::apply_batch(conn, by_topic, batch, positions_here).empty()) {
      throw std::runtime_error(
          "the rebuilt read model lost positions while it was rebuilt: is another "
          "rebuild writing under the same prefix?");
    }
  };
  Topics topics = o.topics;
  const double seconds = read_log(o, topics, "rebuild", [&](const kafka::Message& m, std::int64_t) {
    batch.push_back(m);
    if (batch.size() == kBatch) {
      apply();
      applied += static_cast<std::int64_t>(batch.size());
      batch.clear();
    }
  });
  apply();
  applied += static_cast<std::int64_t>(batch.size());

  // The live projections trail the log by a moment; compare once they have
  // applied everything the rebuild read.
  const auto deadline = std::chrono::steady_clock::now() + o.settle;
  Positions reached;
  std::map<std::string, std::string> live_of;
  for (const auto& m : rebuilt) {
    reached[m.service] = positions(conn, es::KeySpace(o.into, m.service).offsets());
    live_of[m.service] = m.live_positions_of.empty() ? m.service : m.live_positions_of;
  }
  auto where = lag(conn, reached, live_of, o);
  while (!where.behind.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    where = lag(conn, reached, live_of, o);
  }

  std::vector<Difference> differences;
  std::size_t keys = 0;
  for (const auto& m : rebuilt) {
    const auto a = read_space(conn, m.data_base(o.prefix));
    const auto b = read_space(conn, m.data_base(o.into));
    keys += b.size();
    auto d = compare(m.service, a, b, m.not_from_log);
    differences.insert(differences.end(), std::make_move_iterator(d.begin()),
                       std::make_move_iterator(d.end()));
  }
  if (!o.keep) {
    clear_rebuilt();
  }

  std::printf(
      "petstore-audit rebuild: %lld records applied in %.1f s (%.0f/s) under '%s'; %zu keys compared\n",
      static_cast<long long>(applied), seconds, seconds > 0 ? static_cast<double>(applied) / seconds : 0.0,
      o.into.c_str(), keys);
  for (const auto& b : where.behind) {
    std::printf("BEHIND the live projection of %s after %lld s\n", b.c_str(),
                static_cast<long long>(o.settle.count()));
  }
  for (const auto& d : differences) {
    std::printf("DIFFERENCE {%s}:%s: %s\n", d.service.c_str(), d.key.c_str(), d.detail.c_str());
  }
  if (where.ahead && !differences.empty()) {
    std::printf(
        "note: the live read model has applied records appended after the rebuild read the log; "
        "aggregates written since differ for that reason (run again on a quiet store)\n");
  }
  std::printf("%zu difference%s\n", differences.size(), differences.size() == 1 ? "" : "s");
  return differences.empty() && where.behind.empty() ? 0 : 1;
}

int run_history(const Options& o) {
  const Kind kind = o.kind.value();  // parse_options requires it for history
  const auto events = collect(o, "history", [&](const AuditEvent& e) { return mentions(e, kind, o.id); });
  if (o.json) {
    for (const auto& e : events) {
      json::Writer w;
      w.begin_object().field("time", e.time).field("topic", e.at.topic);
      w.field("partition", static_cast<std::int64_t>(e.at.partition)).field("offset", e.at.offset);
      w.field("id", e.id).field("type", e.type).field("version", e.version);
      if (info(e.kind).subject == SubjectForm::KeyId) {
        w.field("subject", subject_text(e.kind, e.subject));
      } else {
        w.field("subject", e.subject);
      }
      w.field("schemaVersion", static_cast<std::int64_t>(e.schema_version))
          .key("data")
          .raw(e.data)
          .end_object();
      std::cout << w.finish() << '\n';
    }
  } else {
    std::printf("%-24s  %-34s  %-42s  %7s  %s\n", "TIME", "RECORD", "TYPE", "VERSION", "DATA");
    for (const auto& e : events) {
      std::printf("%-24s  %-34s  %-42s  %7lld  %s\n", e.time.c_str(), e.at.str().c_str(), e.type.c_str(),
                  static_cast<long long>(e.version), e.data.c_str());
    }
  }
  if (events.empty()) {
    std::fprintf(stderr, "petstore-audit: no event mentions %s %s\n", to_string(kind),
                 subject_text(kind, o.id).c_str());
    return 1;
  }
  return 0;
}

int run_as_of(const Options& o) {
  const Kind kind = o.kind.value();  // parse_options requires it for as-of
  auto events = collect(o, "as-of", [&](const AuditEvent& e) { return e.kind == kind && e.subject == o.id; });
  // One aggregate's events in its own order (they share a partition).
  std::stable_sort(events.begin(), events.end(),
                   [](const AuditEvent& a, const AuditEvent& b) { return a.at.offset < b.at.offset; });
  // parse_options takes only a kind whose view folds it.
  const auto state = view_of(kind)->as_of(events);
  std::cout << state << '\n';
  return state == "null" ? 1 : 0;
}

}  // namespace petstore::audit
