// Package iostreams holds the standard streams a command reads and writes,
// and the decision whether its output is colored.
//
// Only cmd.Main calls [System]; every other piece of lscli gets an
// [IOStreams] passed in, and tests use [Test], whose buffers they inspect.
// Data goes to Out and progress or status to ErrOut, so that
// `lscli get -o yaml | yq` works.
//
// # Color
//
// [ColorEnabled] makes the one color decision from the --color flag, whether
// stdout is a terminal and the environment:
//
//   - --color=never: off. --color=always: on, whatever the environment says.
//   - --color=auto (the default): off when NO_COLOR has any non-empty value;
//     otherwise on when CLICOLOR_FORCE is non-empty and not "0"; otherwise on
//     only when stdout is a terminal.
//
// So the flag wins over the environment, and the environment wins over
// terminal detection.
package iostreams
