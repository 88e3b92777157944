#include "rebuild/compare.h"

namespace petstore::audit {

namespace {

std::string quoted(const std::string& s) {
  constexpr std::size_t kShown = 80;
  return "\"" + (s.size() > kShown ? s.substr(0, kShown) + "…" : s) + "\"";
}

const char* noun(const std::string& type) {
  if (type == "hash") {
    return "field";
  }
  if (type == "zset" || type == "set") {
    return "member";
  }
  return type == "list" ? "index" : "value";
}

void compare_key(const std::string& service, const std::string& name, const KeyContent& live,
                 const KeyContent& rebuilt, const es::NotFromLog& not_from_log, std::size_t per_key,
                 std::vector<Difference>& out) {
  if (live.type != rebuilt.type) {
    out.push_back({service, name, "type: live " + live.type + ", rebuilt " + rebuilt.type});
    return;
  }
  const bool is_hash = live.type == "hash";
  std::vector<std::string> details;
  std::size_t more = 0;
  const auto add = [&](std::string d) {
    if (details.size() < per_key) {
      details.push_back(std::move(d));
    } else {
      ++more;
    }
  };
  const char* what = noun(live.type);
  auto l = live.entries.begin();
  auto r = rebuilt.entries.begin();
  // Both maps are sorted: one merge walk finds every entry on one side only
  // and every entry whose value differs.
  while (l != live.entries.end() || r != rebuilt.entries.end()) {
    if (r == rebuilt.entries.end() || (l != live.entries.end() && l->first < r->first)) {
      if (!(is_hash && not_from_log.covers_field(l->first))) {
        add(std::string(what) + " " + quoted(l->first) + ": only live (" + quoted(l->second) + ")");
      }
      ++l;
    } else if (l == live.entries.end() || r->first < l->first) {
      if (!(is_hash && not_from_log.covers_field(r->first))) {
        add(std::string(what) + " " + quoted(r->first) + ": only rebuilt (" + quoted(r->second) + ")");
      }
      ++r;
    } else {
      if (l->second != r->second && !(is_hash && not_from_log.covers_field(l->first))) {
        add(std::string(what) + " " + quoted(l->first) + ": live " + quoted(l->second) + ", rebuilt " +
            quoted(r->second));
      }
      ++l;
      ++r;
    }
  }
  for (auto& d : details) {
    out.push_back({service, name, std::move(d)});
  }
  if (more > 0) {
    out.push_back({service, name, "and " + std::to_string(more) + " more"});
  }
}

}  // namespace

std::vector<Difference> compare(const std::string& service, const Snapshot& live, const Snapshot& rebuilt,
                                const es::NotFromLog& not_from_log, std::size_t per_key) {
  std::vector<Difference> out;
  auto l = live.begin();
  auto r = rebuilt.begin();
  while (l != live.end() || r != rebuilt.end()) {
    if (r == rebuilt.end() || (l != live.end() && l->first < r->first)) {
      if (!not_from_log.covers_key(l->first)) {
        out.push_back({service, l->first, "only in the live read model (" + l->second.type + ")"});
      }
      ++l;
    } else if (l == live.end() || r->first < l->first) {
      if (!not_from_log.covers_key(r->first)) {
        out.push_back({service, r->first, "only in the rebuilt read model (" + r->second.type + ")"});
      }
      ++r;
    } else {
      if (!not_from_log.covers_key(l->first)) {
        compare_key(service, l->first, l->second, r->second, not_from_log, per_key, out);
      }
      ++l;
      ++r;
    }
  }
  return out;
}

}  // namespace petstore::audit
