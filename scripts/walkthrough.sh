#!/usr/bin/env bash
# Prints the walk-through of docs/walkthrough.md as Markdown: runs each request against a running arbiter
# and shows the exact request and answer.
#   scripts/walkthrough.sh http://127.0.0.1:8080 TOKEN
set -euo pipefail
base=$1
token=$2
# Answers are shown exactly, except that envelopes are cut to `seq` and `event` (the other
# fields are in the first answer) and long answers to the parts discussed.
compact() { # filter
    python3 -c '
import json, sys
kind = sys.argv[1]
data = json.load(sys.stdin)
if kind == "append" and "events" in data:
    data = {"events": [{"seq": e["seq"], "event": e["event"]} for e in data["events"]], "last_seq": data["last_seq"]}
elif kind == "state":
    data = {"as_of_seq": data["as_of_seq"], "state": data["state"]}
elif kind == "audit":
    data = {k: data[k] for k in ("verdict", "decisions_checked", "decisions", "first_divergence")} | {"chain": {k: data["chain"][k] for k in ("intact", "head_seq", "head_hash")}}
print(json.dumps(data, indent=1, ensure_ascii=False))
' "$1"
}
show() { # method path body [filter]
    local method=$1 path=$2 body=${3:-} filter=${4:-full}
    printf '```sh\ncurl -s -X %s %s/%s -H "Authorization: Bearer $TOKEN"' "$method" '$ARBITER' "${path#/}"
    [[ -n "$body" ]] && printf " -H 'content-type: application/json' \\\\\n  -d '%s'" "$body"
    printf '\n```\n\n'
    if [[ -n "$body" ]]; then
        answer=$(curl -s -w '\n%{http_code}' -X "$method" "$base$path" -H "Authorization: Bearer $token" -H 'content-type: application/json' -d "$body")
    else
        answer=$(curl -s -w '\n%{http_code}' -X "$method" "$base$path" -H "Authorization: Bearer $token")
    fi
    status=${answer##*$'\n'}
    body_out=${answer%$'\n'*}
    printf 'Answer (%s):\n\n```json\n%s\n```\n\n' "$status" "$(printf '%s' "$body_out" | compact "$filter" 2>/dev/null || printf '%s' "$body_out")"
    printf '%s' "$body_out" > "$last_file"
}
last_file=$(mktemp)
out=$(mktemp)
trap 'rm -f "$last_file" "$out"' EXIT
last_seq() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["last_seq"])' "$last_file"; }
exec 3>&1 >"$out"

show POST /v1/games '{"white": {"name": "Sokolova, Anna", "fide_id": 4100001}, "black": {"name": "Okafor, Ben"}, "event": "City Open 2026", "round": "3", "board": 7, "time_control": {"kind": "standard", "base_ms": 5400000, "increment_ms": 30000}}'
game=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["game"]["game_id"])' "$last_file")
echo "The game id is \`$game\`; below it is \`\$GAME\`."
echo
seq=1
moves='[{"type": "move", "by": "white", "san": "Nf3"}, {"type": "clock_press", "by": "white", "white_ms": 5391000}, {"type": "move", "by": "black", "san": "Nf6"}, {"type": "clock_press", "by": "black", "black_ms": 5388000}, {"type": "move", "by": "white", "san": "Ng1"}, {"type": "clock_press", "by": "white", "white_ms": 5370000}, {"type": "move", "by": "black", "san": "Ng8"}, {"type": "clock_press", "by": "black", "black_ms": 5379000}]'
show POST "/v1/games/$game/events" "{\"expected_seq\": $seq, \"events\": $moves}" append
seq=$(last_seq)
echo "White claims a draw by repetition now. The starting position stands for the second time only, so the claim is incorrect: Black gets two more minutes (9.5.3), and the claim stands as a draw offer, which Black declines."
echo
show POST "/v1/games/$game/events" "{\"expected_seq\": $seq, \"events\": [{\"type\": \"clock_pause\", \"by\": \"white\"}, {\"type\": \"claim\", \"by\": \"white\", \"kind\": \"repetition\"}]}" append
seq=$(last_seq)
moves='[{"type": "draw_decline", "by": "black"}, {"type": "clock_resume"}, {"type": "move", "by": "white", "san": "Nf3"}, {"type": "clock_press", "by": "white", "white_ms": 5361000}, {"type": "move", "by": "black", "san": "Nf6"}, {"type": "clock_press", "by": "black", "black_ms": 5490000}, {"type": "move", "by": "white", "san": "Ng1"}, {"type": "clock_press", "by": "white", "white_ms": 5355000}]'
show POST "/v1/games/$game/events" "{\"expected_seq\": $seq, \"events\": $moves}" append
seq=$(last_seq)
echo "Black writes Ng8 on the scoresheet without playing it and claims: that move would make the starting position stand for the third time (9.2.1). The claim is correct and the game is drawn."
echo
show POST "/v1/games/$game/events" "{\"expected_seq\": $seq, \"events\": [{\"type\": \"clock_pause\", \"by\": \"black\"}, {\"type\": \"claim\", \"by\": \"black\", \"kind\": \"repetition\", \"intended_move\": \"Ng8\"}]}" append
echo "A flag noticed afterwards changes nothing, and nothing is stored:"
echo
show POST "/v1/games/$game/events" "{\"expected_seq\": $(last_seq), \"events\": [{\"type\": \"flag\", \"side\": \"white\"}]}"
show GET "/v1/games/$game" "" state
show GET "/v1/games/$game/positions"
show GET "/v1/games/$game/audit" "" audit
printf '```sh\ncurl -s $ARBITER/v1/games/$GAME/pgn -H "Authorization: Bearer $TOKEN"\n```\n\n```\n'
curl -s "$base/v1/games/$game/pgn" -H "Authorization: Bearer $token"
printf '```\n'
exec 1>&3
sed "s/$game/\$GAME/g" "$out"
