package dev.backplane.cli.governance;

import dev.backplane.cli.common.RequestBody;

/** The body of approve and reject; break_glass is sent only when set. */
@RequestBody
record Decision(String reason, Boolean breakGlass) {
}
