#!/bin/sh
# termbytes.sh: the bytes phasechat and Claude Code write to a terminal for the fixture server's
# `long` reply (2,000 lines), side by side. A manual tool, not a test: it needs tmux, perl and,
# for the second client, Claude Code installed from npm. docs/fixtures.md ("Bytes on the
# terminal") says how to run it and what each column means.
#
# usage: termbytes.sh PHASECHAT [CLAUDE] [SIZES] [RUNS]
#   PHASECHAT  the phasechat binary (it also serves the fixtures)
#   CLAUDE     Claude Code's `claude` (e.g. /tmp/cc/node_modules/.bin/claude); "-" or empty: none
#   SIZES      terminal sizes, "120x40 80x24" unless given
#   RUNS       runs of each client at each size, 3 unless given; the clients take turns
#
# Raw captures are kept in $OUT (a new directory under /tmp unless set), one file a run.
set -eu

pc=$1
cc=${2:--}
sizes=${3:-120x40 80x24}
runs=${4:-3}
out=${OUT:-$(mktemp -d /tmp/termbytes.XXXXXX)}
mkdir -p "$out"
sock=$out/tmux.sock
echo 'set -g default-terminal tmux-256color' >"$out/tmux.conf"
prompt=hi
key=sk-ant-fixture-0000000000000000

# wait_for TIMEOUT_S CMD...: run CMD every 50ms until it succeeds; fail after TIMEOUT_S.
wait_for() {
	limit=$(($1 * 20))
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		if [ "$i" -ge "$limit" ]; then
			return 1
		fi
		sleep 0.05
	done
}

t() { tmux -S "$sock" "$@"; }
screen() { t capture-pane -p -t m; }

"$pc" fixtures serve --addr 127.0.0.1:0 >"$out/fixtures.out" 2>&1 &
fx=$!
trap 'kill $fx 2>/dev/null; t kill-server 2>/dev/null || true' EXIT
wait_for 30 grep -q 'serving on http://' "$out/fixtures.out"
url=$(sed -n 's|.*serving on \(http://[0-9.:]*\).*|\1|p' "$out/fixtures.out" | head -1)

# Conditions on the screen: the client is ready for a prompt; the reply is over.
pc_ready() { screen | grep -q 'Type a message'; }
pc_done() { s=$(screen); echo "$s" | grep -q 'Line 2000:' && echo "$s" | grep -q 'Answer ready\.'; }
cc_ready() { screen | grep -q '? for shortcuts'; }
cc_done() {
	s=$(screen)
	echo "$s" | grep -q 'Line 2000: the quick brown fox jumps over the lazy dog\.' &&
		! echo "$s" | grep -q 'esc to interrupt' && echo "$s" | grep -q '? for shortcuts'
}

# count FILE FROM: bytes after offset FROM; frames (ESC[?2026h, or ESC[?25l when the client
# never began a synchronized frame) and the largest, each frame counted to the next one's start.
count() {
	perl -e '
		open(my $f, "<:raw", $ARGV[0]) or die; local $/; my $d = <$f>; $d = substr($d, $ARGV[1]);
		my ($mark, $name) = index($d, "\e[?2026h") >= 0 ? ("\e[?2026h", "2026") : ("\e[?25l", "25l");
		my @frames = split(/\Q$mark\E/, $d, -1); shift @frames;
		if (!@frames) { printf "%d - - none\n", length($d); exit }
		my $max = 0; for (@frames) { $max = length($_) + length($mark) if length($_) + length($mark) > $max }
		printf "%d %d %d %s\n", length($d), scalar(@frames), $max, $name;
	' "$1" "$2"
}

# one CLIENT SIZE RUN: one run in a fresh tmux server; prints a row of the table.
one() {
	client=$1 w=${2%x*} h=${2#*x} n=$3
	raw=$out/$client-$2-$n.raw
	home=$out/home-$client-$2-$n
	work=$out/work-$client-$2-$n
	mkdir -p "$home" "$work"
	case $client in
	phasechat)
		cmd="env HOME=$home XDG_CONFIG_HOME=$home $pc --base-url $url/v1 --model long --no-save"
		ready=pc_ready done=pc_done
		;;
	claude)
		# Onboarding (it checks api.anthropic.com, unreachable here), the API key question and
		# the folder trust question are answered in its config beforehand.
		cat >"$home/.claude.json" <<-EOF
			{"hasCompletedOnboarding": true, "theme": "dark",
			 "customApiKeyResponses": {"approved": ["$(printf %s "$key" | tail -c 20)"], "rejected": []},
			 "projects": {"$work": {"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}}
		EOF
		cmd="env HOME=$home ANTHROPIC_BASE_URL=$url ANTHROPIC_API_KEY=$key DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 $cc --model long"
		ready=cc_ready done=cc_done
		;;
	esac
	: >"$raw"
	rm -f "$raw.closed" "$work/go"
	# The client starts once every byte it writes goes to the capture.
	t -f "$out/tmux.conf" new-session -d -s m -x "$w" -y "$h" -c "$work" \
		"while [ ! -e $work/go ]; do sleep 0.01; done; exec $cmd"
	t pipe-pane -t m -o "cat >>$raw; : >$raw.closed"
	: >"$work/go"
	wait_for 60 $ready || { echo "$client $2 $n: never ready; screen:" >&2; screen >&2; exit 1; }
	from=$(wc -c <"$raw")
	t send-keys -t m "$prompt" Enter
	wait_for 120 $done || { echo "$client $2 $n: the reply never ended; screen:" >&2; screen >&2; exit 1; }
	t pipe-pane -t m
	wait_for 10 test -e "$raw.closed"
	t kill-server
	set -- $(count "$raw" 0)
	launch=$1
	set -- $(count "$raw" "$from")
	printf '%-10s %-7s %3s %14s %14s %7s %12s %5s\n' "$client" "$w"x"$h" "$n" "$launch" "$1" "$2" "$3" "$4"
}

clients=phasechat
[ "$cc" != - ] && clients="phasechat claude"
echo "captures in $out; fixtures at $url"
printf '%-10s %-7s %3s %14s %14s %7s %12s %5s\n' client size run "bytes(launch)" "bytes(prompt)" frames "largest" mark
for size in $sizes; do
	n=1
	while [ "$n" -le "$runs" ]; do
		for c in $clients; do
			one "$c" "$size" "$n"
		done
		n=$((n + 1))
	done
done
