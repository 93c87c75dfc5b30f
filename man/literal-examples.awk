# Post-processes the page argument-parser's generate-manual plugin writes (see `make man` in the Makefile).
#
# The plugin copies a command's discussion text as it is. Lines indented by two spaces there are examples
# (`runmate plan --help` shows them so): they become literal displays, so that man keeps each command on its own
# lines instead of filling them into the text around them. A blank line becomes a paragraph break (.Pp), which
# mdoc expects instead of an empty input line.
/^  / {
  if (!literal) { print ".Bd -literal"; literal = 1 }
  print substr($0, 3)
  next
}
literal { print ".Ed"; literal = 0 }
/^$/ { print ".Pp"; next }
{ print }
END { if (literal) print ".Ed" }
