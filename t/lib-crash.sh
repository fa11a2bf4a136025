# lib-crash.sh: kill dirc mid-command and check the repository survived.
# Sourced by the crash-safety scripts after test-lib.sh.
#
# A scenario is a template repository (tpl.NAME, made by the script) and
# a command run in a copy of it.  crash_prepare runs the command once to
# the end in "full.NAME", recording its durable steps (DIRC_TEST_STEPS)
# and the state it ends in.  crash_walk then runs it again in a fresh
# copy for every step N with DIRC_TEST_KILL_AT=N, so that dirc sends
# itself SIGKILL there, and crash_verify checks what the kill left:
#
#   - the index is the old one or the new one: git and dirc both read it
#     and list exactly the entries of one of the two;
#   - every ref holds its old or its new value;
#   - git fsck --strict reports nothing but dangling objects (so every
#     file under objects/ inflates to the object its name says, and
#     every ref and index entry names an object that exists);
#   - nothing was left in .git that neither state has, except tmp_obj_*
#     files (git ignores them) and *.lock files;
#   - a leftover index.lock or ref lock makes the next dirc command fail
#     with git's message that says to remove the file, touching nothing;
#   - with the locks removed, the recovery command (by default the
#     command itself) runs to the end and gives exactly the full run's
#     index, refs, objects listing and "git status".
#
# crash_random kills at random moments from a timer instead (seeded),
# for make test-long.

# crash_state DIR: index listing, refs, HEAD, as git sees them.  Fails
# when git or dirc cannot read the index, or they disagree.
crash_state () {
	(
		cd "$1" &&
		git ls-files -s >../crash.git-ls &&
		dirc ls-files -s >../crash.dirc-ls &&
		cmp -s ../crash.git-ls ../crash.dirc-ls &&
		echo "# index" &&
		cat ../crash.git-ls &&
		echo "# refs" &&
		crash_refs . &&
		echo "# HEAD" &&
		{ git symbolic-ref -q HEAD || git rev-parse -q --verify HEAD ||
		  echo "unborn"; }
	)
}

# crash_refs DIR: "refname value" for every ref.  Reflogs are left to
# git fsck: a rerun after a kill may log a no-op update, as git would.
crash_refs () {
	git -C "$1" for-each-ref --format='%(refname) %(objectname)'
}

# crash_files DIR: the names of the files in DIR/.git, sorted.
crash_files () {
	(cd "$1" && find .git -type f | LC_ALL=C sort)
}

# crash_status DIR: what git status says about the work tree (read-only).
crash_status () {
	git -C "$1" --no-optional-locks status --porcelain=v1 \
		--untracked-files=all --ignored
}

# crash_prepare NAME CMD [RECOVER]: run CMD to the end in a copy of
# tpl.NAME; record the steps and the states before and after.
crash_prepare () {
	crash_name=$1
	crash_cmd=$2
	crash_recover=${3:-$2}
	rm -rf "full.$1" &&
	cp -a "tpl.$1" "full.$1" &&
	crash_state "tpl.$1" >"old.$1" &&
	crash_files "tpl.$1" >"files.$1" &&
	: >"steps.$1" &&
	crash_t0=$(date +%s%N) &&
	(
		cd "full.$1" &&
		DIRC_TEST_STEPS=$TRASH_DIRECTORY/steps.$1 &&
		export DIRC_TEST_STEPS &&
		eval "$crash_cmd"
	) >"out.$1" 2>"err.$1" &&
	crash_ms=$((($(date +%s%N) - crash_t0) / 1000000 + 1)) &&
	crash_state "full.$1" >"new.$1" &&
	crash_files "full.$1" >>"files.$1" &&
	crash_status "full.$1" >"status.$1" &&
	LC_ALL=C sort -u -o "files.$1" "files.$1" &&
	crash_steps=$(wc -l <"steps.$1") &&
	test "$crash_steps" -gt 0 &&
	crash_walk_list "$1" >"walk.$1" &&
	crash_walked=$(wc -l <"walk.$1") &&
	crash_total=$((${crash_total:-0} + crash_walked)) &&
	crash_skipped=$((${crash_skipped:-0} + crash_steps - crash_walked))
}

# crash_walk_list NAME: the steps crash_walk kills at, one number a line.
# With LONG every step.  Without, a kind of step that recurs (a temporary
# object written and one finalised for each of a dozen files) is killed
# at its first two and its last two occurrences only: every kind of step
# is still walked, at its start and end, and every step next to another
# kind.
crash_walk_list () {
	if test_have_prereq LONG
	then
		test_seq 1 "$crash_steps"
	else
		awk '{
			sub(/^[0-9]+ /, "")
			kind[NR] = $0
			k[NR] = ++count[$0]
		}
		END {
			for (i = 1; i <= NR; i++)
				if (k[i] <= 2 || k[i] > count[kind[i]] - 2)
					print i
		}' "steps.$1"
	fi
}

# crash_one_state NAME STATE: STATE is the old or the new state, where
# each ref may have moved independently (a transaction over loose refs
# is not atomic in git either) but the index is one of the two.
crash_one_state () {
	awk -v old="old.$1" -v new="new.$1" '
	function load(file, idx, refs,    sec, line) {
		sec = ""
		while ((getline line < file) > 0) {
			if (line ~ /^# /) { sec = line; continue }
			if (sec == "# index") idx[0] = idx[0] line "\n"
			else if (sec == "# refs") {
				split(line, f, " ")
				refs[f[1]] = f[2]
				names[f[1]] = 1
			} else heads[file] = line
		}
		close(file)
	}
	{
		if ($0 ~ /^# /) { sec = $0; next }
		if (sec == "# index") cur[0] = cur[0] $0 "\n"
		else if (sec == "# refs") { split($0, f, " "); got[f[1]] = f[2]
			names[f[1]] = 1 }
		else head = $0
	}
	END {
		load(old, oi, orf); load(new, ni, nrf)
		if (cur[0] != oi[0] && cur[0] != ni[0]) {
			print "index is neither the old nor the new one"; bad = 1
		}
		for (r in names) {
			g = (r in got) ? got[r] : "(none)"
			o = (r in orf) ? orf[r] : "(none)"
			n = (r in nrf) ? nrf[r] : "(none)"
			if (g != o && g != n) {
				print r ": " g ", neither old " o " nor new " n
				bad = 1
			}
		}
		if (head != heads[old] && head != heads[new]) {
			print "HEAD: " head; bad = 1
		}
		exit bad
	}' "$2"
}

# crash_locks DIR: a leftover lock is reported by the next command, which
# changes nothing; then the locks are removed.  A deletion locks
# packed-refs too, and reports its lock with exit code 1, as git does.
crash_locks () {
	(
		cd "$1" &&
		find .git -name '*.lock' -type f | LC_ALL=C sort >../crash.locks &&
		while read -r lk
		do
			case $lk in
			.git/index.lock)
				cp .git/index ../crash.index-before 2>/dev/null ||
					: >../crash.index-before
				test_expect_code 128 dirc read-tree --empty \
					2>../crash.err
				;;
			.git/refs/*.lock|.git/HEAD.lock)
				ref=${lk#.git/}
				ref=${ref%.lock}
				test_expect_code 128 dirc update-ref "$ref" \
					"$(git rev-parse -q --verify HEAD ||
					   git rev-parse --verify next)" \
					2>../crash.err
				;;
			.git/packed-refs.lock)
				test_expect_code 1 dirc update-ref -d \
					refs/heads/crash-probe 2>../crash.err
				;;
			*)
				echo "unexpected lock file $lk"
				false
				;;
			esac &&
			test_grep "Unable to create '.*$lk': File exists" \
				../crash.err &&
			test_grep "or the lock file may be stale" ../crash.err &&
			if test "$lk" = .git/index.lock
			then
				if test -f .git/index
				then
					cmp .git/index ../crash.index-before
				else
					test_must_be_empty ../crash.index-before
				fi
			fi &&
			rm -f "$lk" || return 1
		done <../crash.locks
	)
}

# crash_fsck DIR: nothing but dangling objects and unborn-HEAD notices.
crash_fsck () {
	git -C "$1" fsck --strict --no-progress >crash.fsck 2>&1 &&
	! grep -v -e '^dangling ' -e '^notice: HEAD points to an unborn' \
		-e '^notice: No default references' crash.fsck
}

# crash_verify NAME DIR: everything above, for DIR left by a kill.
crash_verify () {
	crash_state "$2" >crash.state &&
	crash_one_state "$1" crash.state &&
	crash_fsck "$2" &&
	crash_files "$2" >crash.files &&
	LC_ALL=C comm -13 "files.$1" crash.files |
		grep -v -e '/tmp_obj_[^/]*$' -e '\.lock$' >crash.extra
	test_must_be_empty crash.extra &&
	crash_locks "$2" &&
	(cd "$2" && eval "$crash_recover") >crash.out 2>crash.err &&
	crash_state "$2" >crash.state &&
	test_cmp "new.$1" crash.state &&
	crash_status "$2" >crash.status &&
	test_cmp "status.$1" crash.status &&
	crash_fsck "$2"
}

# crash_walk NAME: kill at every step of the prepared command in turn
# (every one crash_walk_list names).
crash_walk () {
	while read -r crash_i <&7
	do
		rm -rf "kill.$1" &&
		cp -a "tpl.$1" "kill.$1" &&
		{
			(
				cd "kill.$1" &&
				DIRC_TEST_KILL_AT=$crash_i &&
				export DIRC_TEST_KILL_AT &&
				eval "$crash_cmd"
			) >/dev/null 2>crash.kill-err
			crash_code=$?
		} &&
		if test "$crash_code" != 137
		then
			echo "step $crash_i: exit $crash_code, not SIGKILL"
			cat crash.kill-err
			return 1
		fi &&
		if ! crash_verify "$1" "kill.$1"
		then
			echo "after the kill at step $crash_i:" \
				"$(sed -n "${crash_i}p" "steps.$1")"
			return 1
		fi &&
		crash_kills=$((${crash_kills:-0} + 1)) || return 1
	done 7<"walk.$1" &&
	rm -rf "kill.$1"
}

# crash_random NAME COUNT SEED: after crash_prepare NAME, COUNT runs of
# the command, each killed by a timer after a delay drawn (from SEED)
# between nothing and a little over the time an uninterrupted run takes
# here (measured first, the same way); every state left is verified.  A
# run that finished before its timer counts as a run, not a kill; a kill
# after at least one durable step (DIRC_TEST_STEPS) counts as "mid-way".
crash_random () {
	rm -rf "kill.$1" &&
	cp -a "tpl.$1" "kill.$1" &&
	crash_t0=$(date +%s%N) &&
	timeout -s KILL 600 sh -c "cd \"kill.$1\" && $crash_cmd" \
		>/dev/null 2>&1 &&
	crash_ms=$((($(date +%s%N) - crash_t0) / 1000000 + 1)) &&
	echo "# $1: an uninterrupted run takes $crash_ms ms" &&
	awk -v n="$2" -v seed="$3" -v ms="$crash_ms" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			printf "%.3f\n", rand() * ms * 1.05 / 1000
	}' >"delays.$1" &&
	crash_i=0 &&
	while read -r crash_delay
	do
		crash_i=$((crash_i + 1)) &&
		rm -rf "kill.$1" &&
		cp -a "tpl.$1" "kill.$1" &&
		: >crash.steps &&
		{
			DIRC_TEST_STEPS=$TRASH_DIRECTORY/crash.steps \
			timeout -s KILL "$crash_delay" \
				sh -c "cd \"kill.$1\" && $crash_cmd" \
				>/dev/null 2>crash.kill-err
			crash_code=$?
		} &&
		case $crash_code in
		137)
			crash_kills=$((${crash_kills:-0} + 1)) &&
			if test -s crash.steps
			then
				crash_mid=$((${crash_mid:-0} + 1))
			fi ;;
		0)
			crash_done=$((${crash_done:-0} + 1)) ;;
		*)
			echo "run $crash_i (timer $crash_delay s): exit $crash_code"
			cat crash.kill-err
			false ;;
		esac &&
		if ! crash_verify "$1" "kill.$1"
		then
			echo "after run $crash_i, killed at $crash_delay s" \
				"(seed $3)"
			return 1
		fi || return 1
	done <"delays.$1" &&
	rm -rf "kill.$1"
}
