#include "http/history_route.h"

#include <utility>

#include "http/request.h"
#include "http/response.h"

namespace petstore::http {

void add_history_route(Router& router, const std::string& path, const char* param, HistoryReader history) {
  router.add("GET", path,
             [param, history = std::move(history)](const httplib::Request& req, httplib::Response& res,
                                                   const PathParams& params) {
               const Query q(req, {"limit", "cursor"});
               const auto page = history(params.id(0, param), page_request(q));
               send_json_page(req, res, page.items, page.next_cursor);
             });
}

}  // namespace petstore::http
