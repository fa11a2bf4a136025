# bash completion for dirc                              -*- shell-script -*-
#
# Completes dirc's command names (from "dirc help -a") and, for each
# command, its long options (from "dirc <cmd> --git-completion-helper",
# which prints them from the command's own option table).  Works for
# "dirc <cmd>" and, when git's own completion is loaded, for
# "git dirc <cmd>" (git calls _git_dirc; bash-completion loads this file
# for it under the name git-dirc).
#
# Install it as "dirc" (and a link "git-dirc") in bash-completion's
# directory, e.g. /usr/share/bash-completion/completions, or source it
# from ~/.bashrc.
#
# As git's completion: the options before "--" in the helper's output
# are offered for "--<TAB>", with "--no-..." standing for the rest, which
# are offered once "--no" is typed; an option ending in "=" takes its
# value after it, so no space is added.

# The command names, cached for the shell's life.
__dirc_commands ()
{
	if [ -z "${__dirc_cmdlist-}" ]; then
		__dirc_cmdlist=$(dirc help -a 2>/dev/null |
			sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p')
	fi
	printf '%s\n' "$__dirc_cmdlist"
}

# The options of command $1, cached per command.
__dirc_options ()
{
	local var="__dirc_opts_${1//-/_}"

	if [ -z "${!var-}" ]; then
		printf -v "$var" '%s' \
			"$(dirc "$1" --git-completion-helper 2>/dev/null)"
	fi
	printf '%s\n' "${!var}"
}

# Fill COMPREPLY with the words of $1 that start with $2, a space after
# each that does not end in "=".
__dirc_reply ()
{
	local w cur_="$2"

	for w in $1; do
		[[ $w == "$cur_"* ]] || continue
		case $w in
		*=) COMPREPLY+=("$w") ;;
		*) COMPREPLY+=("$w ") ;;
		esac
	done
}

# The options of command $1 that match $2, split at "--" as git does.
__dirc_reply_options ()
{
	local w before="" after="" split=""

	for w in $(__dirc_options "$1"); do
		if [ "$w" = "--" ]; then
			split=1
		elif [ -n "$split" ]; then
			after="$after $w"
		else
			before="$before $w"
		fi
	done
	case "$2" in
	--no*)
		__dirc_reply "$before $after" "$2" ;;
	*)
		__dirc_reply "$before" "$2"
		if [ -n "$split" ] && [[ "--no-..." == "$2"* ]]; then
			COMPREPLY+=("--no-... ")
		fi ;;
	esac
}

# dirc's global options (dirc(1)); those taking the next word as value
# are listed in __dirc_complete_words.
__dirc_global_options="--version --help --exec-path --exec-path= --paginate
--no-pager --no-replace-objects --bare --git-dir= --work-tree= --namespace=
--config-env= --literal-pathspecs --glob-pathspecs --noglob-pathspecs
--icase-pathspecs --no-optional-locks"

# Complete words[cword], where words[$1] is "dirc" (0 for dirc itself,
# 1 after "git" for git dirc).
__dirc_complete_words ()
{
	local i=$(( $1 + 1 )) cmd="" cur_="${words[cword]}"

	while [ "$i" -lt "$cword" ]; do
		case "${words[i]}" in
		-C|-c|--git-dir|--work-tree|--namespace|--config-env)
			i=$((i + 2)); continue ;;
		-*)
			i=$((i + 1)); continue ;;
		esac
		cmd="${words[i]}"
		break
	done
	COMPREPLY=()
	if [ -z "$cmd" ]; then
		case "$cur_" in
		-*) __dirc_reply "$__dirc_global_options" "$cur_" ;;
		*) __dirc_reply "$(__dirc_commands)" "$cur_" ;;
		esac
		return
	fi
	case "$cmd" in
	help)
		case "$cur_" in
		--*) __dirc_reply_options help "$cur_" ;;
		*) __dirc_reply "$(__dirc_commands)" "$cur_" ;;
		esac
		return ;;
	esac
	# after "--" only paths: left to bash's default completion
	i=$((i + 1))
	while [ "$i" -lt "$cword" ]; do
		[ "${words[i]}" = "--" ] && return
		i=$((i + 1))
	done
	case "$cur_" in
	--*) __dirc_reply_options "$cmd" "$cur_" ;;
	esac
}

_dirc ()
{
	local words cword

	words=("${COMP_WORDS[@]}")
	cword=$COMP_CWORD
	__dirc_complete_words 0
}

# git dirc <cmd>: git's completion calls this with its words and cword.
_git_dirc ()
{
	local i=1

	while [ "$i" -lt "$cword" ] && [ "${words[i]}" != dirc ]; do
		i=$((i + 1))
	done
	__dirc_complete_words "$i"
}

complete -o bashdefault -o default -o nospace -F _dirc dirc 2>/dev/null ||
	complete -o default -o nospace -F _dirc dirc
