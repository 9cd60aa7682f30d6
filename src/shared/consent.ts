/**
 * The consent a subscriber gives: the checkbox label in the subscribe invitation, word for
 * word. The server stores this exact text with each subscription, as the record of consent.
 * With a parent brand configured (BRAND_NAME), the label names it too (DESIGN.md).
 */
export function consentText(siteName: string, brandName: string | null = null): string {
  return brandName
    ? `I agree to receive emails from ${siteName}, ${brandName} and its affiliates.`
    : `I agree to receive emails from ${siteName} and its affiliates.`;
}
