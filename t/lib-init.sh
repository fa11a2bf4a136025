# lib-init.sh: run a command that sets up or finds a repository with git
# and with dirc from the same starting state, and compare what each did.
# Sourced after test-lib.sh (and lib-interop.sh for GIT_MSGS).
#
#   init_template
#	Make "$TRASH_DIRECTORY/tmpl", a template directory (description,
#	info/exclude, an executable hook, a symbolic link, a dot file that
#	is not copied) and export GIT_TEMPLATE_DIR to it, so that git and
#	dirc make byte-identical git directories.
#   both NAME SCRIPT
#	In a fresh directory NAME, run BOTH_SETUP (if set; it always runs
#	git) and then SCRIPT, once with $cmd=git and once with $cmd=dirc
#	(SCRIPT says "$cmd init ..." and so on); BOTH_GIT names the git
#	command instead of "git" (git_new: what git 2.55 does).  "$ask <question>" asks
#	where the repository is: git rev-parse, or for dirc "test-tool
#	repo-setup" (what repo_open() found, in rev-parse's words), and
#	"$ask_common" for the absolute common directory.  Exit code, stdout and
#	stderr go to {git,dirc}.{code,out,err}; what NAME holds afterwards
#	(every path with its type, mode and content) to {git,dirc}.tree.
#	The two results stay as NAME.git and NAME.dirc, and NAME becomes
#	a symbolic link to NAME.dirc (paths written inside lead there).
#	A config git 2.39 writes (BOTH_SETUP's too) is first put in git
#	2.55's order, with test_config_order_new.
#   same_as_git [--no-tree]
#	Both exited alike, printed the same and (unless --no-tree) left
#	the same files.  stderr is compared with GIT_MSGS only.
#   tree_of DIR
#	The listing "both" compares: every path with its mode (a link
#	with its target), then the checksum of every file but an index
#	(its stat data differs from run to run).  Two finds, no loop: the
#	listing is made hundreds of times a script.

init_template () {
	rm -rf "$TRASH_DIRECTORY/tmpl" &&
	mkdir -p "$TRASH_DIRECTORY/tmpl/info" "$TRASH_DIRECTORY/tmpl/hooks" \
		"$TRASH_DIRECTORY/tmpl/branches" &&
	echo "test description" >"$TRASH_DIRECTORY/tmpl/description" &&
	echo "*.o" >"$TRASH_DIRECTORY/tmpl/info/exclude" &&
	printf '#!/bin/sh\nexit 0\n' >"$TRASH_DIRECTORY/tmpl/hooks/pre-commit" &&
	chmod 755 "$TRASH_DIRECTORY/tmpl/hooks/pre-commit" &&
	ln -s pre-commit "$TRASH_DIRECTORY/tmpl/hooks/link" &&
	echo hidden >"$TRASH_DIRECTORY/tmpl/.hidden" &&
	GIT_TEMPLATE_DIR="$TRASH_DIRECTORY/tmpl" &&
	export GIT_TEMPLATE_DIR
}

tree_of () {
	(
		cd "$1" &&
		find . \( -type l -printf '%p -> %l\n' \) -o -printf '%p %M\n' |
			LC_ALL=C sort &&
		# an index's stat data differs from run to run: its mode only
		find . -type f ! -name index -exec cksum {} + | LC_ALL=C sort -k 3
	)
}

# git 2.39's configs under $1 in git 2.55's order (test_config_order_new)
both_order_configs_ () {
	find "$1" -name config -type f >"$TRASH_DIRECTORY/both.configs" &&
	while read -r b_config_
	do
		test_config_order_new "$b_config_" || return 1
	done <"$TRASH_DIRECTORY/both.configs"
}

both () {
	b_name=$1
	b_script=$2
	for b_who in git dirc
	do
		rm -rf "$b_name" "$b_name.$b_who" &&
		mkdir "$b_name" &&
		(
			cd "$b_name" &&
			if test -n "${BOTH_SETUP-}"
			then
				cmd=git &&
				eval "$BOTH_SETUP" </dev/null >/dev/null 2>&1 &&
				both_order_configs_ .
			fi &&
			cmd=$b_who &&
			if test $b_who = git
			then
				cmd=${BOTH_GIT:-git}
			fi &&
			if test $b_who = git
			then
				ask="git rev-parse" &&
				ask_common="git rev-parse --path-format=absolute --git-common-dir"
			else
				ask="dirc test-tool repo-setup" &&
				ask_common="dirc test-tool repo-setup --git-common-dir"
			fi &&
			{
				eval "$b_script" </dev/null \
					>"$TRASH_DIRECTORY/$b_who.out" \
					2>"$TRASH_DIRECTORY/$b_who.err"
				echo $? >"$TRASH_DIRECTORY/$b_who.code"
			} &&
			if test $b_who = git
			then
				both_order_configs_ .
			fi
		) &&
		tree_of "$b_name" >"$TRASH_DIRECTORY/$b_who.tree" &&
		mv "$b_name" "$b_name.$b_who" || return 1
	done &&
	# absolute paths written inside still lead to dirc's result
	ln -s "$b_name.dirc" "$b_name"
}

same_as_git () {
	test_cmp_codes "$TRASH_DIRECTORY/git.code" "$TRASH_DIRECTORY/dirc.code" &&
	test_cmp "$TRASH_DIRECTORY/git.out" "$TRASH_DIRECTORY/dirc.out" &&
	if test_have_prereq GIT_MSGS
	then
		test_cmp "$TRASH_DIRECTORY/git.err" "$TRASH_DIRECTORY/dirc.err"
	fi &&
	if test "${1-}" != --no-tree
	then
		test_cmp "$TRASH_DIRECTORY/git.tree" "$TRASH_DIRECTORY/dirc.tree"
	fi
}
