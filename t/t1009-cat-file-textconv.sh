#!/bin/sh
test_description='cat-file --textconv, --filters, --path and --use-mailmap

--filters converts a blob as a checkout by git would (attributes of the
work tree, not the index, as git), compared with git byte for byte with
the same messages and exit codes.  --textconv prints as git where no
textconv program is configured for the diff driver of the path, and refuses
(128) where one is.  --use-mailmap maps idents as git does (the
mailmap itself is t1010'"'"'s).'
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
		160000,$(test_oid_fake 1234567890),sub &&
	test_tick &&
	git commit -q -m one &&
	blob=$(git rev-parse HEAD:file) &&
	missing=$(test_oid_fake 0123456789)
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

test_expect_success GIT 'attributes: --filters converts as git, --textconv prints as git' '
	echo "*.c diff=foo" >.gitattributes &&
	cf_same --textconv HEAD:file &&
	cf_same --filters HEAD:dir/crlf &&
	echo "* eol=crlf" >.gitattributes &&
	cf_same --filters HEAD:file &&
	cf_same --filters HEAD:dir/crlf &&
	cf_same --filters --path=x HEAD:file &&
	echo "HEAD:file file" >in &&
	cf_same_in in --batch --filters &&
	cf_same_in in --batch-check --filters &&
	echo "x* eol=crlf" >.gitattributes &&
	cf_same --filters --path=xfile HEAD:file &&
	cf_same --filters HEAD:file &&
	rm .gitattributes
'

test_expect_success GIT 'attributes in a subdirectory, info/attributes or core.attributesFile; not the index' '
	echo "* eol=crlf" >dir/.gitattributes &&
	printf "a\nb\n" >dir/lf &&
	git add dir/lf &&
	test_tick &&
	git commit -q -m lf &&
	cf_same --filters HEAD:dir/lf &&
	git add dir/.gitattributes &&
	rm dir/.gitattributes &&
	cf_same --filters HEAD:dir/lf &&
	git rm -q --cached dir/.gitattributes &&
	mkdir -p .git/info &&
	echo "* eol=crlf ident" >.git/info/attributes &&
	cf_same --filters HEAD:file &&
	rm .git/info/attributes &&
	echo "* eol=crlf" >attrs &&
	git config core.attributesFile "$(pwd)/attrs" &&
	cf_same --filters HEAD:file &&
	git config --unset core.attributesFile &&
	rm attrs
'

test_expect_success GIT 'core.autocrlf=true and input: --filters as git' '
	git config core.autocrlf true &&
	cf_same --filters HEAD:file &&
	cf_same --filters HEAD:dir/crlf &&
	cf_same --textconv HEAD:file &&
	git config core.autocrlf input &&
	cf_same --filters HEAD:file &&
	git config --unset core.autocrlf
'

test_expect_success 'a textconv program git would run: --textconv refuses' '
	echo "file diff=up" >.gitattributes &&
	git config diff.up.textconv "tr a-z A-Z" &&
	test_expect_code 128 dirc cat-file --textconv HEAD:file >out 2>err &&
	test_must_be_empty out &&
	test_grep "^fatal: --textconv: dirc does not run textconv programs" err &&
	echo "HEAD:file file" >in &&
	test_expect_code 128 dirc cat-file --batch --textconv <in >out 2>err &&
	dirc cat-file --filters HEAD:file >out &&
	test_cmp file out &&
	git config --unset diff.up.textconv &&
	rm .gitattributes
'

test_expect_success GIT 'a mailmap git applies: -p, -s and <type> <object> as git' '
	echo "New Name <author@example.com>" >.mailmap &&
	for args in "--use-mailmap -s HEAD" "--no-mailmap -p HEAD" \
		"--use-mailmap --no-use-mailmap -p HEAD" \
		"--mailmap commit HEAD" "--use-mailmap -p HEAD"
	do
		dirc cat-file $args >actual &&
		git cat-file $args >expect &&
		test_cmp expect actual || return 1
	done &&
	test_grep "^author New Name <author@example.com>" actual &&
	rm .mailmap
'

test_done
