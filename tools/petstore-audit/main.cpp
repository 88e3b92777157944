// petstore-audit: replays the event log to prove that the state follows from
// it (docs/audit.md). Thin: the commands live in commands.cpp.
#include <exception>
#include <iostream>

#include "commands.h"

int main(int argc, char** argv) {
  using namespace petstore::audit;
  Options options;
  try {
    options = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::invalid_argument& e) {
    std::cerr << "petstore-audit: " << e.what() << "\n\n" << usage();
    return 2;
  }
  if (options.command == "help") {
    std::cout << usage();
    return 0;
  }
  try {
    if (options.command == "verify") {
      return run_verify(options);
    }
    if (options.command == "rebuild") {
      return run_rebuild(options);
    }
    if (options.command == "history") {
      return run_history(options);
    }
    return run_as_of(options);
  } catch (const std::exception& e) {
    std::cerr << "petstore-audit: " << e.what() << '\n';
    return 2;
  }
}
