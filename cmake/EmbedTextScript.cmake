file(READ ${INPUT} content)
set(delim "PETSTORE_EMBED")
file(WRITE ${OUTPUT}
  "// Generated from ${INPUT}; edit that file instead.\n#pragma once\n#include <string_view>\n"
  "inline constexpr std::string_view ${SYMBOL} = R\"${delim}(${content})${delim}\";\n")
