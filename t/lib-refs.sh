# lib-refs.sh: the ref store as the state lib-interop.sh compares.
# Sourced after lib-interop.sh, in a script whose repository is the trash
# directory's own (.git).
#
# The state is every entry of .git that holds refs: HEAD, packed-refs,
# refs/, logs/, FETCH_HEAD and the other one-level refs, and any lock or
# temporary file left among them; not config, objects, index, hooks,
# info, description, branches.  interop_run saves it to .git/refs.start,
# sets git's result aside in .git/refs.by-git and restores the start for
# dirc.  same_result compares the files (names and bytes) git and dirc
# left; state_unchanged also compares the directories, which dirc must
# leave as it found them even where git leaves empty ones behind.
#
#   refs_listing DIR	the files of the ref state below git dir DIR,
#			each "==> <path> <==" then its bytes
#   refs_dirs DIR	its directories
#   refs_snapshot NAME	save listing and directories of .git to NAME.*
#   refs_unchanged NAME	.git still as refs_snapshot NAME saw it
#   refs_commits	three commits in a line (c1, c2, c3) of one file
#			"a", made by git; sets tree, c1, c2, c3

INTEROP_STATE=refs

# refs_items DIR: the top-level entries of git dir DIR that are ref state.
refs_items () {
	ls -A "$1" | grep -v -x -e config -e description -e hooks -e info \
		-e objects -e index -e branches -e COMMIT_EDITMSG \
		-e 'refs\.start' -e 'refs\.by-git' -e shallow -e worktrees \
		-e modules -e lfs -e rr-cache -e gitk.cache -e '[a-z-]*\.pack'
}

refs_listing () {
	(
		cd "$1" &&
		refs_items . >"$TRASH_DIRECTORY/refs.items" &&
		if test -s "$TRASH_DIRECTORY/refs.items"
		then
			# one tail for all: a header ("==> f <==") and the bytes
			find $(cat "$TRASH_DIRECTORY/refs.items") -type f |
				LC_ALL=C sort | xargs -r -d "\n" tail -v -n +1
		fi
	)
}

refs_dirs () {
	(
		cd "$1" &&
		refs_items . >"$TRASH_DIRECTORY/refs.items" &&
		if test -s "$TRASH_DIRECTORY/refs.items"
		then
			find $(cat "$TRASH_DIRECTORY/refs.items") -type d | LC_ALL=C sort
		fi
	)
}

refs_snapshot () {
	refs_listing .git >"$TRASH_DIRECTORY/$1.files" &&
	refs_dirs .git >"$TRASH_DIRECTORY/$1.dirs"
}

refs_unchanged () {
	refs_listing .git >"$TRASH_DIRECTORY/now.files" &&
	refs_dirs .git >"$TRASH_DIRECTORY/now.dirs" &&
	test_cmp "$TRASH_DIRECTORY/$1.files" "$TRASH_DIRECTORY/now.files" &&
	test_cmp "$TRASH_DIRECTORY/$1.dirs" "$TRASH_DIRECTORY/now.dirs"
}

interop_save () {
	rm -rf .git/refs.start .git/refs.by-git &&
	mkdir .git/refs.start &&
	for rs_i in $(refs_items .git)
	do
		cp -Rp ".git/$rs_i" .git/refs.start/ || return 1
	done
}

interop_keep_git () {
	mkdir .git/refs.by-git &&
	for rs_i in $(refs_items .git)
	do
		mv ".git/$rs_i" .git/refs.by-git/ || return 1
	done
}

interop_restore () {
	for rs_i in $(refs_items .git)
	do
		rm -rf ".git/$rs_i" || return 1
	done &&
	for rs_i in $(refs_items .git/refs.start)
	do
		cp -Rp ".git/refs.start/$rs_i" .git/ || return 1
	done
}

interop_same_state () {
	refs_listing .git/refs.by-git >"$TRASH_DIRECTORY/git.refs" &&
	refs_listing .git >"$TRASH_DIRECTORY/dirc.refs" &&
	test_cmp "$TRASH_DIRECTORY/git.refs" "$TRASH_DIRECTORY/dirc.refs"
}

# the copy in .git/refs.start is the starting state, listed when asked
interop_state_unchanged () {
	refs_listing .git/refs.start >"$TRASH_DIRECTORY/start.files" &&
	refs_dirs .git/refs.start >"$TRASH_DIRECTORY/start.dirs" &&
	refs_listing .git >"$TRASH_DIRECTORY/now.files" &&
	refs_dirs .git >"$TRASH_DIRECTORY/now.dirs" &&
	test_cmp "$TRASH_DIRECTORY/start.files" "$TRASH_DIRECTORY/now.files" &&
	test_cmp "$TRASH_DIRECTORY/start.dirs" "$TRASH_DIRECTORY/now.dirs"
}

# no_lock_left: no lock or temporary file anywhere in .git (but in the
# copies interop_run keeps in .git/refs.start and .git/refs.by-git).
no_lock_left () {
	find .git \( -path .git/refs.start -o -path .git/refs.by-git \) -prune -o \
		\( -name "*.lock" -o -name "packed-refs.new" \) -print \
		>"$TRASH_DIRECTORY/locks" &&
	test_must_be_empty "$TRASH_DIRECTORY/locks"
}

refs_commits () {
	echo a >a &&
	git update-index --add a &&
	tree=$(git write-tree) &&
	c1=$(git commit-tree -m one "$tree") &&
	test_tick &&
	c2=$(git commit-tree -p "$c1" -m two "$tree") &&
	test_tick &&
	c3=$(git commit-tree -p "$c2" -m three "$tree")
}
