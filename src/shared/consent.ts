/**
 * The consent a subscriber gives: the checkbox label in the subscribe invitation, word for
 * word. The server stores this exact text with each subscription, as the record of consent.
 */
export function consentText(siteName: string): string {
  return `I agree to receive emails from ${siteName} and its affiliates.`;
}
