#pragma once

namespace petstore::http {

// One response, one TCP segment.
//
// cpp-httplib 0.11.4 writes a response with two send() calls, its head and
// then its body (Server::write_response_core), and with TCP_NODELAY each
// leaves at once. nginx forwards a response's head to its client as soon as
// it has read it. So a replica killed between the two sends (SIGKILL, the
// OOM killer) leaves nginx with a head it has already passed on and a body
// that never comes: it can only cut the client's connection, and it cannot
// retry the request on another replica, because the client has bytes of
// this answer already. store_replicas_test caught it: "upstream prematurely
// closed connection while reading upstream" in nginx's log, "no response
// (Read)" at the client, one read lost in 15 runs.
//
// Corking the socket for the span of a response (TCP_CORK, tcp(7)) makes the
// kernel hold the head until the body joins it, and uncorking sends both as
// one segment: a replica killed before that sends nothing of the answer, and
// nginx retries the request elsewhere (proxy_next_upstream); killed after,
// the whole answer is already in the kernel, which delivers it. It also
// spares nginx a second wake-up and read per response. The server knows each
// connection's socket from its connection loop (http/connection_loop.h).

// Holds back (`on`) or sends at once (`!on`) what is written to the TCP
// socket `fd`, as TCP_CORK does. Failures are ignored: an uncorked socket
// only costs the extra segment.
void cork(int fd, bool on);

}  // namespace petstore::http
