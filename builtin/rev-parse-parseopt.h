/*
 * rev-parse-parseopt: "rev-parse --parseopt", the option parser of shell
 * porcelain.  The script's option spec is read from stdin, its
 * arguments parsed against it as git parses a command's options, and a
 * "set -- ..." line printed for the script to eval.
 */
#ifndef DIRC_REV_PARSE_PARSEOPT_H
#define DIRC_REV_PARSE_PARSEOPT_H

/*
 * argv[0] is "--parseopt"; the rest are the mode's own options, "--",
 * and the script's arguments.  Returns 0 after printing the "set --"
 * line; a usage request, a usage error or a bad spec exit (129, 128)
 * with git's messages.
 */
int rev_parse_parseopt(int argc, const char **argv);

#endif
