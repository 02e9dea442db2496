// A digest's recipients: a comma-separated list of e-mail addresses, checked the same way by the
// dashboard's form and the server (no zod here, so that the form does not load the server's schemas).

/** Recipients a digest may have. */
export const DIGEST_RECIPIENTS_MAX = 50;

export const RECIPIENT_MESSAGES = {
  tooMany: `A digest may have at most ${DIGEST_RECIPIENTS_MAX} recipients.`,
  invalid: (addresses: readonly string[]) =>
    addresses.length === 1
      ? `“${addresses[0]}” is not an e-mail address.`
      : `${addresses.map((address) => `“${address}”`).join(', ')} are not e-mail addresses.`,
} as const;

/** An e-mail address as a digest takes it: one @, a dot in the domain, no spaces, commas or angle brackets. */
const EMAIL_ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;.]+(\.[^\s@<>",;.]+)+$/;

/**
 * A comma-separated list of e-mail addresses (spaces and empty entries ignored, duplicates kept once):
 * the addresses, or what is wrong in one message (the first three bad addresses named).
 */
export function parseRecipients(text: string): { ok: true; recipients: string[] } | { ok: false; error: string } {
  const recipients = [...new Set(text.split(/[,;\n]/).map((part) => part.trim()).filter((part) => part !== ''))];
  const invalid = recipients
    .filter((address) => address.length > 254 || !EMAIL_ADDRESS.test(address))
    .slice(0, 3)
    .map((address) => (address.length > 80 ? `${address.slice(0, 80)}…` : address));
  if (invalid.length > 0) return { ok: false, error: RECIPIENT_MESSAGES.invalid(invalid) };
  if (recipients.length > DIGEST_RECIPIENTS_MAX) return { ok: false, error: RECIPIENT_MESSAGES.tooMany };
  return { ok: true, recipients };
}
