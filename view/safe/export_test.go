package safe

// What the external tests (package safe_test) read of the package's internals.
const (
	ZWJ        = zwj
	TextStyle  = textStyle
	EmojiStyle = emojiStyle
	BlackFlag  = blackFlag
	CancelTag  = cancelTag
	MaxHeld    = maxHeld
	SoftHyphen = softHyphen
	ZWNJ       = zwnj
)

var (
	IsSequenceJoiner = isSequenceJoiner
	IsWordJoiner     = isWordJoiner
)
