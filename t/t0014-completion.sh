#!/bin/sh
test_description='shell completion: Documentation/completion/dirc.bash and _dirc

The bash function is called as bash calls it (COMP_WORDS, COMP_CWORD,
then COMPREPLY read back), in a non-interactive bash.  For every command,
the options completed after "--" and "--no" are exactly the long options
the command accepts: each one completed is accepted, and each option git
completes for its command, or dirc lists in its -h, is completed if and
only if dirc accepts it.  "git dirc <cmd>" completes through git'"'"'s own
completion when it is installed; zsh is checked when it is installed.'
. ./test-lib.sh

BASH_COMPLETION=$TEST_DIRECTORY/../Documentation/completion/dirc.bash
ZSH_COMPLETION=$TEST_DIRECTORY/../Documentation/completion/_dirc

# Where git's own bash completion is, if installed.
git_completion_file () {
	for f in /usr/share/bash-completion/completions/git \
		/usr/share/git/completion/git-completion.bash \
		/usr/share/git-core/contrib/completion/git-completion.bash
	do
		if test -f "$f"
		then
			echo "$f"
			return 0
		fi
	done
	return 1
}

test_lazy_prereq BASH 'command -v bash >/dev/null'
test_lazy_prereq ZSH 'command -v zsh >/dev/null'
test_lazy_prereq GIT_COMPLETION 'git_completion_file >/dev/null'

# complete WORD...: complete the last word of "WORD..." with _dirc,
# COMPREPLY one per line into "reply".
complete_words () {
	bash --norc --noprofile -c '
		. "$1" && shift &&
		COMP_WORDS=("$@") &&
		COMP_CWORD=$(($# - 1)) &&
		COMPREPLY=() &&
		_dirc &&
		for w in "${COMPREPLY[@]}"; do printf "%s|\n" "$w"; done
	' - "$BASH_COMPLETION" "$@" >reply
}

# The options of CMD as completed ("--" and "--no"), sorted, without the
# trailing space, into "completed"; fails on an entry without a space
# after it that does not end in "=" (or with one that does).
completed_options () {
	complete_words dirc "$1" -- &&
	cp reply reply.dashdash &&
	complete_words dirc "$1" --no &&
	cat reply.dashdash reply >reply.all &&
	if grep -v -e "[^=] |$" -e "=|$" reply.all
	then
		echo "bad spacing in the completion of $1" >&2
		return 1
	fi &&
	grep -v "^--no-\.\.\. |$" reply.all | sed -e "s/ *|$//" | sort -u >completed
}

test_expect_success BASH 'setup' '
	bash -n "$BASH_COMPLETION" &&
	dirc help -a >all &&
	sed -n "s/^   \([a-z-]*\)  .*/\1/p" all >names &&
	test_line_count -gt 20 names &&
	git init -q tmpl &&
	echo a >tmpl/a &&
	git -C tmpl add a &&
	git -C tmpl commit -q -m one
'

test_expect_success BASH 'command names' '
	complete_words dirc "" &&
	sed "s/ |$//" reply >actual &&
	test_cmp names actual &&
	complete_words dirc upd &&
	test_write_lines "update-cache |" "update-index |" "update-ref |" >expect &&
	test_cmp expect reply &&
	complete_words dirc -C somewhere --git-dir=x wri &&
	echo "write-tree |" >expect &&
	test_cmp expect reply &&
	complete_words dirc help ls- &&
	test_write_lines "ls-files |" "ls-tree |" >expect &&
	test_cmp expect reply &&
	complete_words dirc --no-p &&
	echo "--no-pager |" >expect &&
	test_cmp expect reply
'

test_expect_success BASH '--git-completion-helper: git'"'"'s format' '
	dirc write-tree --git-completion-helper >out &&
	echo "--missing-ok --prefix= --threads= --no-missing-ok -- --no-prefix --no-threads" >expect &&
	test_cmp expect out &&
	dirc hash-object --git-completion-helper >out &&
	test_grep "^ --" out &&
	test_grep " --no-filters .* --filters -- " out &&
	test_expect_code 129 dirc write-tree --missing-ok --git-completion-helper 2>err &&
	test_grep "unknown option .git-completion-helper." err
'

# accepted CMD OPT: dirc CMD takes OPT, given as OPT=1 when it is
# completed with "=" (diff-index and diff-tree get a tree after it), in a
# fresh copy of tmpl: it may fail, but not for the option.  An option in
# a command'"'"'s table counts as taken even where dirc then refuses the
# feature ("not supported by dirc"), as git completes it.
accepted () {
	rm -rf try &&
	cp -R tmpl try &&
	if grep -x -e "$2=" completed >/dev/null
	then
		arg=$2=1
	else
		arg=$2
	fi &&
	case $1 in
	diff-index|diff-tree) set -- "$1" "$arg" HEAD ;;
	*) set -- "$1" "$arg" ;;
	esac &&
	(
		cd try &&
		dirc "$@" </dev/null >../try.out 2>../try.err
		echo $? >../try.code
	) &&
	read -r code <try.code &&
	case $code in
	0|1|128|129) ;;
	*) echo "dirc $*: exit $code" >&2; cat try.err >&2; return 1 ;;
	esac &&
	! grep -e "unknown option" -e "unknown switch" -e "ambiguous option" \
		try.err >/dev/null &&
	# the commands without an option table complete only what they do
	# (an option of git's that dirc refuses is not completed), and the
	# diff family refuses with its usage alone, as git
	case $1 in
	diff-*|commit-tree)
		! grep -e "not supported" -e "does not sign" -e "^usage: " \
			try.err >/dev/null ;;
	esac
}

# rev-parse has no option table (it passes what it does not know on, as
# git's does), merge-index only -o, -q and -a: no long options.
test_expect_success BASH,GIT 'every option completed is accepted, every one accepted is completed' '
	while read -r cmd
	do
		case $cmd in
		rev-parse|merge-index) continue ;;
		update-cache|update-index) git_cmd=update-index ;;
		init-db) git_cmd=init ;;
		checkout-cache) git_cmd=checkout-index ;;
		*) git_cmd=$cmd ;;
		esac &&
		completed_options $cmd &&
		# the names from git'"'"'s completion, dirc'"'"'s -h and dirc'"'"'s
		{
			(cd tmpl && git $git_cmd --git-completion-helper) 2>/dev/null |
			tr " " "\n" || :
		} >universe &&
		test_expect_code 129 dirc $cmd -h >h.out 2>&1 &&
		sed -n "s/^ *\(-., \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p" h.out >>universe &&
		cat completed >>universe &&
		sed -n "s/^\(--[a-z][a-z0-9-]*\)=\{0,1\}$/\1/p" universe |
			sort -u >candidates &&
		while read -r opt
		do
			if accepted $cmd $opt
			then
				grep -x -e "$opt" -e "$opt=" completed >/dev/null || {
					echo "dirc $cmd accepts $opt, not completed" >&2
					return 1
				}
			else
				! grep -x -e "$opt" -e "$opt=" completed >/dev/null || {
					echo "dirc $cmd refuses $opt, completed:" >&2
					cat try.err >&2
					return 1
				}
			fi
		done <candidates || return 1
	done <names
'

test_expect_success BASH 'options: the --no- forms only on --no, git'"'"'s placeholder' '
	complete_words dirc write-tree -- &&
	test_write_lines "--missing-ok |" "--prefix=|" "--threads=|" \
		"--no-missing-ok |" "--no-... |" >expect &&
	test_cmp expect reply &&
	complete_words dirc write-tree --no &&
	test_write_lines "--no-missing-ok |" "--no-prefix |" \
		"--no-threads |" >expect &&
	test_cmp expect reply &&
	complete_words dirc write-tree --pr &&
	echo "--prefix=|" >expect &&
	test_cmp expect reply &&
	complete_words dirc write-tree -- --mi &&
	test_must_be_empty reply
'

# git_complete WORD...: complete the last word of "git WORD..." with
# git's own completion and dirc.bash loaded; COMPREPLY into "reply".
git_complete () {
	bash --norc --noprofile -c '
		. "$1" && . "$2" && shift 2 &&
		COMP_WORDS=("$@") &&
		COMP_CWORD=$(($# - 1)) &&
		COMP_LINE="$*" && COMP_POINT=${#COMP_LINE} &&
		COMPREPLY=() &&
		__git_wrap__git_main &&
		for w in "${COMPREPLY[@]}"; do printf "%s|\n" "$w"; done
	' - "$(git_completion_file)" "$BASH_COMPLETION" git "$@" >reply
}

test_expect_success BASH,GIT_COMPLETION 'git dirc <cmd>: through git'"'"'s completion' '
	git_complete dirc upd &&
	test_write_lines "update-cache |" "update-index |" "update-ref |" >expect &&
	test_cmp expect reply &&
	git_complete -C . dirc write-tree --mi &&
	echo "--missing-ok |" >expect &&
	test_cmp expect reply
'

test_expect_success !ZSH 'zsh is not installed: its completion is not checked' '
	echo "# skipping the zsh checks: no zsh in PATH (CI installs it)"
'

# zsh_complete WORD...: run _dirc with completion's builtins replaced by
# functions that print what would be offered, one per line.
zsh_complete () {
	zsh -f -c '
		file=$1; shift
		compadd () {
			while [[ $1 == -* && $1 != -- ]]; do
				[[ $1 == -S ]] && shift
				shift
			done
			[[ $1 == -- ]] && shift
			print -rl -- "$@"
		}
		_describe () { print -rl -- ${(P)4}; }
		_files () { print -r -- "<files>"; }
		words=("$@")
		CURRENT=$#
		PREFIX=${words[CURRENT]}
		source "$file"
	' - "$ZSH_COMPLETION" "$@" >reply
}

test_expect_success ZSH 'zsh: syntax, command names, options' '
	zsh -n "$ZSH_COMPLETION" &&
	zsh_complete dirc "" &&
	sed "s/:.*//" reply >actual &&
	test_cmp names actual &&
	zsh_complete dirc write-tree -- &&
	test_write_lines --missing-ok --no-missing-ok --prefix= --threads= >expect &&
	sort reply >actual &&
	test_cmp expect actual &&
	zsh_complete dirc write-tree --no &&
	test_write_lines --missing-ok --no-missing-ok --no-prefix --no-threads \
		--prefix= --threads= >expect &&
	sort reply >actual &&
	test_cmp expect actual
'

test_done
