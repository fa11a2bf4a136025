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
# leave as it found them even where git leaves empty ones behind.  The
# comparisons are one "diff -r" each (its report is shown on a
# difference); saving and restoring is one cp, mv or rm over all the
# entries at once.
#
#   refs_listing DIR	the files of the ref state below git dir DIR,
#			each "==> <path> <==" then its bytes
#   refs_dirs DIR	its directories
#   refs_snapshot NAME	save the ref state of .git (a copy, NAME.refs)
#   refs_unchanged NAME	.git still as refs_snapshot NAME saw it
#   refs_commits	three commits in a line (c1, c2, c3) of one file
#			"a", made by git; sets tree, c1, c2, c3

INTEROP_STATE=refs

# refs_item_p_ NAME: NAME, a top-level entry of a git dir, is ref state.
refs_item_p_ () {
	case $1 in
	config|description|hooks|info|objects|index|branches|COMMIT_EDITMSG|\
	refs.start|refs.by-git|shallow|worktrees|modules|lfs|rr-cache|\
	gitk.cache)
		return 1 ;;
	*.pack)
		# "[a-z-]*.pack" (a pack file at the top) is not
		case ${1%.pack} in
		*[!a-z-]*) ;;
		*) return 1 ;;
		esac ;;
	esac
	return 0
}

# refs_with_items_ DIR CMD ARGS...: run "CMD ARGS... ITEM..." with the
# ref state entries of git dir DIR (DIR/NAME, or NAME when DIR is "."),
# in one process; nothing is run when there are none.
refs_with_items_ () {
	rw_dir=$1
	rw_any=
	shift
	for rw_p in "$rw_dir"/* "$rw_dir"/.[!.]* "$rw_dir"/..?*
	do
		test -e "$rw_p" || test -h "$rw_p" || continue
		refs_item_p_ "${rw_p##*/}" || continue
		set -- "$@" "${rw_p#./}"
		rw_any=t
	done
	test -z "$rw_any" || "$@"
}

# refs_items DIR: the top-level entries of git dir DIR that are ref state.
refs_items () {
	for ri_p in "$1"/* "$1"/.[!.]* "$1"/..?*
	do
		test -e "$ri_p" || test -h "$ri_p" || continue
		! refs_item_p_ "${ri_p##*/}" || printf "%s\n" "${ri_p##*/}"
	done
}

# refs_find_ TYPE ITEM...: find ITEM... -type TYPE, sorted
refs_find_ () {
	rf_type=$1
	shift
	find "$@" -type "$rf_type" >"$TRASH_DIRECTORY/refs.found" &&
	LC_ALL=C sort "$TRASH_DIRECTORY/refs.found"
}

refs_listing () {
	(
		cd "$1" &&
		# one tail for all: a header ("==> f <==") and the bytes
		refs_with_items_ . refs_find_ f >"$TRASH_DIRECTORY/refs.files" &&
		xargs -r -d "\n" tail -v -n +1 <"$TRASH_DIRECTORY/refs.files"
	)
}

refs_dirs () {
	(
		cd "$1" &&
		refs_with_items_ . refs_find_ d
	)
}

# refs_diff_ FROM TO [files]: FROM (a copy holding only ref state) and the
# ref state of git dir TO are the same (with "files": the same files,
# directories holding no file not counted), else diff's report on
# stderr.  One "diff -r": what it says about the entries of TO that are
# not ref state (config, objects, the copies...) is dropped here.
refs_diff_ () {
	rd_out=$TRASH_DIRECTORY/refs.diff
	diff -r "$1" "$2" >"$rd_out"
	case $? in
	0)	return 0 ;;
	1)	;;
	*)	echo "refs: diff -r $1 $2 failed:" >&2
		cat "$rd_out" >&2
		return 1 ;;
	esac
	: >"$rd_out.kept"
	while IFS= read -r rd_line
	do
		case $rd_line in
		"Only in $2: "*)
			refs_item_p_ "${rd_line#"Only in $2: "}" || continue ;;
		esac
		if test "$3" = files
		then
			case $rd_line in
			"Only in "*": "*)
				rd_p=${rd_line#Only in }
				rd_p="${rd_p%%: *}/${rd_p#*: }"
				if test -d "$rd_p" && ! test -h "$rd_p" &&
				   test -z "$(find "$rd_p" -type f)"
				then
					continue
				fi ;;
			esac
		fi
		printf "%s\n" "$rd_line" >>"$rd_out.kept"
	done <"$rd_out"
	test -s "$rd_out.kept" || return 0
	echo "refs: $1 (expected) and $2 (actual) differ:" >&2
	cat "$rd_out.kept" >&2
	return 1
}

# refs_copy_ GITDIR DEST: DEST (made afresh) holds a copy of GITDIR's
# ref state.
refs_copy_ () {
	rm -rf "$2" &&
	mkdir "$2" &&
	refs_with_items_ "$1" cp -Rp -t "$2"
}

refs_snapshot () {
	refs_copy_ .git "$TRASH_DIRECTORY/$1.refs"
}

refs_unchanged () {
	refs_diff_ "$TRASH_DIRECTORY/$1.refs" .git
}

interop_save () {
	rm -rf .git/refs.by-git &&
	refs_copy_ .git .git/refs.start
}

interop_keep_git () {
	mkdir .git/refs.by-git &&
	refs_with_items_ .git mv -t .git/refs.by-git
}

interop_restore () {
	refs_with_items_ .git rm -rf &&
	cp -Rp .git/refs.start/. .git/
}

interop_same_state () {
	refs_diff_ .git/refs.by-git .git files
}

# the copy in .git/refs.start is the starting state
interop_state_unchanged () {
	refs_diff_ .git/refs.start .git
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

# update-ref's messages as git 2.55 words them, from git 2.39's: the
# fields are "<new-oid>" and "<old-oid>" since git 2.45 (stdin filter);
# a new object is checked as the update is queued, and its message is
# no longer prefixed by "cannot update ref '<ref>': ".
update_ref_msgs_now () {
	sed -e "s/<newvalue>/<new-oid>/g" -e "s/<oldvalue>/<old-oid>/g" \
		-e "s/<new-val>/<new-oid>/g" -e "s/<old-val>/<old-oid>/g" \
		-e "s/cannot update ref '[^']*': \(trying to write \)/\1/"
}
