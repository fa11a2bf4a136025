#!/bin/sh
test_description='cat-file --textconv, --filters, --path and --use-mailmap without attributes or mailmaps

dirc reads no gitattributes and applies no mailmap.  Where none could
apply (no attributes file at all, core.autocrlf not true, no mailmap),
git prints objects unchanged, and dirc prints the same, compared here
byte for byte with the same messages and exit codes.  As soon as an
attributes file or a mailmap exists that git would read, dirc refuses
with 128 and says why, rather than print unconverted content.'
. ./test-lib.sh
INTEROP_STATE=none
. "$TEST_DIRECTORY"/lib-interop.sh

cf_same () {
	interop_run cat-file "$@" &&
	same_result
}

cf_same_in () {
	cs_in=$1 &&
	shift &&
	interop_run -i "$cs_in" cat-file "$@" &&
	same_result
}

test_expect_success GIT 'setup' '
	printf "line one\nline two\n" >file &&
	mkdir dir &&
	printf "text\r\n" >dir/crlf &&
	ln -s file link &&
	git add file dir link &&
	git update-index --add --cacheinfo \
		160000,1234567890123456789012345678901234567890,sub &&
	test_tick &&
	git commit -q -m one &&
	blob=$(git rev-parse HEAD:file) &&
	missing=0123456789012345678901234567890123456789
'

test_expect_success GIT 'single objects with --textconv and --filters, as git' '
	for args in "--textconv HEAD:file" "--filters HEAD:file" \
		"--textconv HEAD:dir" "--filters HEAD:dir" "--textconv :file" \
		"--filters :0:file" "--textconv HEAD:dir/crlf" "--filters HEAD:link" \
		"--textconv --path=file HEAD:file" "--filters --path=x $blob" \
		"--textconv --path=file HEAD" "--filters --path=dir HEAD" \
		"--textconv HEAD" "--filters $blob" "--textconv HEAD^{tree}" \
		"--textconv HEAD:nosuch" "--textconv nosuch:x" "--textconv HEAD~9:file" \
		"--filters :nosuch" "--textconv nosuch" "--filters a:b" \
		"--textconv HEAD:sub" "--filters HEAD:sub" \
		"--filters --path=file $missing" "--textconv --path=file $missing"
	do
		cf_same $args || return 1
	done
'

test_expect_success GIT 'batches with --textconv and --filters: the path follows the name, as git' '
	printf "%s\n" "HEAD:file file" "$blob file" "HEAD:dir dir" HEAD \
		"nosuch x" "$blob	file" >with-paths &&
	printf "%s\n" "HEAD:file" "$blob" >no-path &&
	printf "%s\n" "contents $blob file" "info $blob" "contents HEAD:dir" \
		"contents HEAD:file" >cmds &&
	for c in --textconv --filters
	do
		cf_same_in with-paths --batch $c &&
		cf_same_in with-paths --batch-check $c &&
		cf_same_in no-path --batch $c &&
		test_grep "^fatal: missing path for '"'"'$(git rev-parse HEAD:file)'"'"'\$" dirc.err &&
		cf_same_in no-path --batch-check $c &&
		cf_same_in cmds --batch-command $c &&
		cf_same_in no-path --batch $c --path=file &&
		cf_same_in with-paths "--batch=%(objecttype) %(rest)" $c || return 1
	done
'

test_expect_success GIT '--use-mailmap and --mailmap without a mailmap, as git' '
	for args in "--use-mailmap -p HEAD" "--mailmap commit HEAD" \
		"--no-mailmap -p HEAD" "--use-mailmap -s HEAD"
	do
		cf_same $args || return 1
	done &&
	echo HEAD >head-in &&
	cf_same_in head-in --batch --use-mailmap
'

test_expect_success 'an attributes file that could apply: --textconv and --filters refuse' '
	echo "*.c diff=foo" >.gitattributes &&
	test_expect_code 128 dirc cat-file --textconv HEAD:file >out 2>err &&
	test_must_be_empty out &&
	test_grep "^fatal: --textconv: dirc does not read gitattributes, and .*\.gitattributes.* may set attributes for .file." err &&
	test_expect_code 128 dirc cat-file --filters HEAD:dir/crlf >out 2>err &&
	test_must_be_empty out &&
	test_grep "^fatal: --filters: dirc does not read gitattributes" err &&
	echo "HEAD:file file" >in &&
	test_expect_code 128 dirc cat-file --batch --textconv <in >out 2>err &&
	test_must_be_empty out &&
	dirc cat-file --batch-check --textconv <in >out &&
	echo "$blob blob 18" >expect &&
	test_cmp expect out &&
	dirc cat-file --textconv HEAD:dir >out &&
	git cat-file -p HEAD:dir >expect &&
	test_cmp expect out &&
	rm .gitattributes
'

test_expect_success 'attributes in a subdirectory, the index, info/attributes or core.attributesFile' '
	echo "* text" >dir/.gitattributes &&
	test_expect_code 128 dirc cat-file --filters HEAD:dir/crlf 2>err &&
	test_grep "dir/.gitattributes" err &&
	dirc cat-file --filters HEAD:file >out &&
	test_cmp file out &&
	git add dir/.gitattributes &&
	rm dir/.gitattributes &&
	test_expect_code 128 dirc cat-file --filters HEAD:dir/crlf 2>err &&
	test_grep ":dir/.gitattributes" err &&
	git rm -q --cached dir/.gitattributes &&
	mkdir -p .git/info &&
	echo "* -text" >.git/info/attributes &&
	test_expect_code 128 dirc cat-file --textconv HEAD:file 2>err &&
	test_grep "info/attributes" err &&
	rm .git/info/attributes &&
	echo "* diff=x" >attrs &&
	test_expect_code 128 dirc -c core.attributesFile="$(pwd)/attrs" \
		cat-file --textconv HEAD:file 2>err &&
	test_grep "attrs" err &&
	mkdir -p "$HOME/.config/git" xdg/git &&
	cp attrs "$HOME/.config/git/attributes" &&
	test_expect_code 128 dirc cat-file --textconv HEAD:file 2>err &&
	test_grep ".config/git/attributes" err &&
	rm "$HOME/.config/git/attributes" &&
	cp attrs xdg/git/attributes &&
	XDG_CONFIG_HOME="$(pwd)/xdg" &&
	export XDG_CONFIG_HOME &&
	test_expect_code 128 dirc cat-file --textconv HEAD:file 2>err &&
	test_grep "xdg/git/attributes" err &&
	unset XDG_CONFIG_HOME &&
	rm -r xdg attrs &&
	dirc cat-file --textconv HEAD:file >out &&
	test_cmp file out
'

test_expect_success 'core.autocrlf=true: --filters refuses, --textconv does not' '
	test_expect_code 128 dirc -c core.autocrlf=true cat-file --filters HEAD:file 2>err &&
	test_grep "core.autocrlf is true" err &&
	dirc -c core.autocrlf=true cat-file --textconv HEAD:file >out &&
	test_cmp file out &&
	dirc -c core.autocrlf=input cat-file --filters HEAD:file >out &&
	test_cmp file out
'

test_expect_success 'a mailmap git would apply: --use-mailmap refuses' '
	echo "New Name <author@example.com>" >.mailmap &&
	test_expect_code 128 dirc cat-file --use-mailmap -p HEAD >out 2>err &&
	test_must_be_empty out &&
	test_grep "^fatal: --use-mailmap: dirc does not apply mailmaps, and .*\.mailmap. exists" err &&
	rm .mailmap &&
	test_expect_code 128 dirc -c mailmap.file=x cat-file --mailmap -p HEAD 2>err &&
	test_grep "mailmap.file is set" err &&
	test_expect_code 128 dirc -c mailmap.blob=HEAD:x cat-file --mailmap -p HEAD 2>err &&
	test_grep "mailmap.blob is set" err &&
	dirc cat-file --no-mailmap -p HEAD >out &&
	git cat-file -p HEAD >expect &&
	test_cmp expect out
'

test_done
