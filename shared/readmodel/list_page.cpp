#include "readmodel/list_page.h"

#include "embedded/list.lua.h"

namespace petstore::readmodel {

Lister::Lister(redis::Multiplexer& reads) : reads_(reads), list_(kListLua) {}

redis::Reply Lister::fetch(const std::string& index, const std::string& hash_prefix,
                           const std::vector<std::string_view>& fields, const readmodel::PageRequest& req) {
  const auto after = std::to_string(req.after);
  const auto fetch = std::to_string(ids_to_fetch(req));
  redis::Args args{after, fetch, hash_prefix};
  args.insert(args.end(), fields.begin(), fields.end());
  return reads_.script(list_, {index}, args);
}

}  // namespace petstore::readmodel
