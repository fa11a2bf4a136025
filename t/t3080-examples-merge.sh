#!/bin/sh
test_description='Documentation/examples/dirc-merge.sh: a three-way merge with dirc as with git

One repository with a base commit O, master (O + our changes) and topic
branches from O.  Each scenario copies it twice and runs dirc-merge.sh
(read-tree -m -u, merge-index with a merge program, write-tree,
commit-tree with two parents, update-ref) with DIRC=git in one copy and
with DIRC=dirc in the other: exit code, output, messages, HEAD, refs,
reflog, MERGE_HEAD/MERGE_MSG, the index (byte for byte, stat data
apart: lib-examples.sh) and the work tree must be equal.  Scenarios: a
clean merge, conflicts the merge program resolves, conflicts left
unresolved, a fast-forward, nothing to merge, refusals; with our merge
program and with git'"'"'s git-merge-one-file.

Each scenario also runs with git on both sides (the sanity check, which
runs while dirc still lacks read-tree merges or merge-index: then the
comparisons with dirc are skipped, naming what is missing) and is
checked against git'"'"'s own porcelain (git merge -s resolve) where they
must agree.'
. ./test-lib.sh
. "$TEST_DIRECTORY"/lib-examples.sh

MERGE_SH=$EXAMPLES/dirc-merge.sh

ex_say_missing DIRC_READ_TREE_3WAY "read-tree -m with three trees"
ex_say_missing DIRC_READ_TREE_2WAY "read-tree -m with two trees"
ex_say_missing DIRC_MERGE_INDEX "merge-index"
ex_say_missing DIRC_DIFF_INDEX "diff-index"

# lines PREFIX N...: "PREFIX 1" ... one line per number, in order
lines () {
	lines_p=$1
	shift
	for lines_i
	do
		echo "$lines_p $lines_i" || return 1
	done
}

# edit FILE N TEXT: line N of FILE becomes TEXT
edit () {
	awk -v n="$2" -v t="$3" 'NR == n { print t; next } { print }' "$1" >"$1.new" &&
	mv "$1.new" "$1"
}

test_expect_success GIT 'setup: base O, master, topic branches' '
	git init -q tmpl &&
	(
		cd tmpl &&
		lines line 1 2 3 4 5 6 7 8 9 10 >a.txt &&
		echo b >b.txt &&
		mkdir -p dir/sub &&
		lines c 1 2 3 4 5 6 >dir/c.txt &&
		echo d >dir/sub/d.txt &&
		printf "#!/bin/sh\necho run\n" >run.sh &&
		chmod +x run.sh &&
		echo go >gone-ours.txt &&
		echo gt >gone-theirs.txt &&
		echo gb >gone-both.txt &&
		git add . &&
		test_tick &&
		git commit -q -m O &&
		git tag O &&

		git checkout -q -b topic-clean O &&
		echo "b changed by topic-clean" >b.txt &&
		mkdir newdir &&
		echo t >newdir/t.txt &&
		echo "d changed by topic-clean" >dir/sub/d.txt &&
		git add . &&
		test_tick &&
		git commit -q -m topic-clean &&

		git checkout -q -b topic-resolve O &&
		edit a.txt 9 "line 9 theirs" &&
		edit dir/c.txt 5 "c 5 theirs" &&
		git rm -q gone-theirs.txt gone-both.txt &&
		echo same >both-same.txt &&
		chmod -x run.sh &&
		git add . &&
		test_tick &&
		git commit -q -m topic-resolve &&

		git checkout -q -b topic-conflict O &&
		edit a.txt 2 "line 2 theirs" &&
		echo "go changed by topic-conflict" >gone-ours.txt &&
		echo theirs >both-add.txt &&
		git add . &&
		test_tick &&
		git commit -q -m topic-conflict &&

		git checkout -q master &&
		edit a.txt 2 "line 2 ours" &&
		edit dir/c.txt 2 "c 2 ours" &&
		git rm -q gone-ours.txt gone-both.txt &&
		echo m >m.txt &&
		echo same >both-same.txt &&
		echo ours >both-add.txt &&
		git add . &&
		test_tick &&
		git commit -q -m master &&

		git checkout -q -b topic-ff master &&
		echo ff >ff.txt &&
		git add ff.txt &&
		test_tick &&
		git commit -q -m topic-ff &&
		git checkout -q master &&
		git update-index -q --refresh
	) &&
	git -C tmpl rev-parse master topic-conflict topic-ff >tmpl.ids &&
	{
		read -r id_master &&
		read -r id_topic_conflict &&
		read -r id_topic_ff
	} <tmpl.ids &&
	test_tick
'

# merged_like_git DIR BRANCH: DIR's HEAD is a merge of master and BRANCH
# with the tree git merge -s resolve makes, and a clean index and work
# tree holding that tree.  What git merge makes of BRANCH (tmpl never
# changes) is made once, kept in resolved.BRANCH: its tree, then
# master and BRANCH, the parents DIR's HEAD must have
merged_like_git () {
	if ! test -f "resolved.$2"
	then
		rm -rf porcelain &&
		cp -R tmpl porcelain &&
		git -C porcelain merge -q -s resolve --no-ff -m merged "$2" \
			>/dev/null 2>&1 &&
		git -C porcelain rev-parse HEAD^{tree} >resolved.tmp &&
		git -C tmpl rev-parse master "$2" >>resolved.tmp &&
		mv resolved.tmp "resolved.$2"
	fi &&
	git -C "$1" rev-parse HEAD^{tree} HEAD^1 HEAD^2 >actual.resolved &&
	test_cmp "resolved.$2" actual.resolved &&
	git -C "$1" diff-index --cached HEAD >diff.out &&
	test_must_be_empty diff.out &&
	git -C "$1" diff-files >diff.out &&
	test_must_be_empty diff.out &&
	git -C "$1" ls-files -o >others.out &&
	test_must_be_empty others.out
}

# scenario TITLE PREREQS CHECK ARGS...: two tests: dirc-merge.sh ARGS
# in copies of $SC_TMPL (default tmpl) with git on both sides (the
# sanity check), then with git and dirc, each followed by CHECK (shell,
# on the ex-dirc side's results).  PREREQS: what dirc needs besides
# the commands it has (diff-index: the script's first check).  (No ARG
# holds a single quote.)  git does the same each time (the sanity check
# shows it), so when the sanity check has just passed, the second test
# compares dirc with its git side (ex-git, git.*) instead of running git
# again; otherwise (skipped, failed) it runs both sides.
scenario () {
	sc_title=$1 sc_pre=$2 sc_check=$3
	shift 3
	sc_args=
	for sc_a
	do
		sc_args="$sc_args '$sc_a'"
	done
	sc_n=$((${sc_n:-0} + 1))
	test_expect_success "GIT,DIFF3" "$sc_title: git and git alike (sanity)" "
		sc_git_side= &&
		ex_both git ${SC_TMPL:-tmpl} \"\$MERGE_SH\" $sc_args &&
		ex_same &&
		{
			$sc_check
		} &&
		sc_git_side=$sc_n
	"
	test_expect_success "GIT,DIFF3${sc_pre:+,$sc_pre}" "$sc_title: dirc like git" "
		if test \"\$sc_git_side\" = $sc_n
		then
			ex_dirc_side dirc ${SC_TMPL:-tmpl} \"\$MERGE_SH\" $sc_args &&
			ex_same_as_kept .
		else
			ex_both dirc ${SC_TMPL:-tmpl} \"\$MERGE_SH\" $sc_args &&
			ex_same
		fi &&
		$sc_check
	"
}

scenario 'clean merge (only one side changed each path)' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	merged_like_git ex-dirc topic-clean &&
	git -C ex-dirc log -1 --format=%s >subject &&
	echo "Merge branch '\''topic-clean'\''" >expect.subject &&
	test_cmp expect.subject subject &&
	test_path_is_missing ex-dirc/.git/MERGE_HEAD
' topic-clean

scenario '--aggressive: the same merge, deletions resolved by read-tree' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	merged_like_git ex-dirc topic-clean
' --aggressive topic-clean

scenario 'conflicts the merge program resolves (both edited a file, deletions, the same file added)' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	merged_like_git ex-dirc topic-resolve &&
	test_grep "^Auto-merging a.txt" dirc.out &&
	test_grep "^Removing gone-theirs.txt" dirc.out &&
	test_path_is_missing ex-dirc/gone-theirs.txt &&
	test_path_is_missing ex-dirc/gone-both.txt &&
	test_grep "line 9 theirs" ex-dirc/a.txt &&
	test_grep "line 2 ours" ex-dirc/a.txt
' -m "merge with resolved conflicts" topic-resolve

scenario 'conflicts left unresolved: exit 1, stages in the index, markers, MERGE_HEAD' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX '
	echo 1 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	echo "$id_master" >expect.head &&
	git -C ex-dirc rev-parse HEAD >actual.head &&
	test_cmp expect.head actual.head &&
	echo "$id_topic_conflict" >expect.merge-head &&
	test_cmp expect.merge-head ex-dirc/.git/MERGE_HEAD &&
	git -C ex-dirc ls-files -u >unmerged &&
	awk "{ print \$3, \$4 }" unmerged >stages &&
	test_write_lines "1 a.txt" "2 a.txt" "3 a.txt" "2 both-add.txt" \
		"3 both-add.txt" "1 gone-ours.txt" "3 gone-ours.txt" >expect.stages &&
	test_cmp expect.stages stages &&
	test_grep "^<<<<<<< ours" ex-dirc/a.txt &&
	test_grep "^>>>>>>> theirs" ex-dirc/both-add.txt &&
	test_grep "^Automatic merge failed" dirc.out &&
	test_grep "CONFLICT (modify/delete): gone-ours.txt" dirc.out
' topic-conflict

scenario 'fast-forward: read-tree -m -u HEAD <commit>' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_2WAY '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	echo "$id_topic_ff" >expect.head &&
	git -C ex-dirc rev-parse HEAD >actual.head &&
	test_cmp expect.head actual.head &&
	test_grep "^Fast-forward" dirc.out &&
	git -C ex-dirc diff-files >diff.out &&
	test_must_be_empty diff.out &&
	echo ff >expect.ff &&
	test_cmp expect.ff ex-dirc/ff.txt
' topic-ff

scenario '--no-ff: a merge commit even where a fast-forward would do' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	merged_like_git ex-dirc topic-ff
' --no-ff topic-ff

scenario 'nothing to merge: an ancestor of HEAD' DIRC_DIFF_INDEX '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	echo "Already up to date." >expect.out &&
	test_cmp expect.out dirc.out &&
	echo "$id_master" >expect.head &&
	git -C ex-dirc rev-parse HEAD >actual.head &&
	test_cmp expect.head actual.head
' O

scenario 'git-merge-one-file as the merge program, with --aggressive: git merge -s resolve exactly' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY,DIRC_MERGE_INDEX '
	echo 0 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	merged_like_git ex-dirc topic-resolve
' --aggressive --program=git-merge-one-file topic-resolve

test_expect_success GIT 'setup: a work tree change, a staged change' '
	cp -R tmpl tmpl-dirty &&
	git -C tmpl-dirty update-index -q --refresh &&
	echo "local change" >tmpl-dirty/b.txt &&
	cp -R tmpl tmpl-staged &&
	git -C tmpl-staged update-index -q --refresh &&
	echo "staged change" >tmpl-staged/b.txt &&
	git -C tmpl-staged update-index b.txt
'

# unchanged TEMPLATE: the ex-dirc side is as TEMPLATE was (dirc.state:
# ex-dirc'"'"'s state, as ex_same just wrote it; TEMPLATE'"'"'s, which never
# changes, is kept in TEMPLATE.state)
unchanged () {
	if ! test -f "$1.state"
	then
		ex_state "$1" >state.tmp &&
		mv state.tmp "$1.state"
	fi &&
	test_cmp "$1.state" dirc.state
}

SC_TMPL=tmpl-dirty
scenario 'refused by read-tree: a local change the merge would overwrite' \
	DIRC_DIFF_INDEX,DIRC_READ_TREE_3WAY '
	echo 128 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	echo "error: Entry '\''b.txt'\'' not uptodate. Cannot merge." >expect.err &&
	test_cmp expect.err dirc.err &&
	unchanged tmpl-dirty
' topic-clean

SC_TMPL=tmpl-staged
scenario 'refused by the script: a staged change' DIRC_DIFF_INDEX '
	echo 128 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	echo "dirc-merge: the index holds changes not committed to HEAD; commit them first" >expect.err &&
	test_cmp expect.err dirc.err &&
	unchanged tmpl-staged
' topic-clean

SC_TMPL=tmpl
scenario 'refused by the script: not a commit' '' '
	echo 128 >expect.code &&
	test_cmp_codes expect.code dirc.code &&
	echo "dirc-merge: '\''no-such-branch'\'' does not name a commit" >expect.err &&
	test_cmp expect.err dirc.err &&
	unchanged tmpl
' no-such-branch

test_done
