import { phoneRisk } from '../risk.ts';
import { nothing, source } from '../source-result.ts';
import type { SourceSet } from './username.ts';

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A phone number parsed with libphonenumber's full metadata (PhoneInfoga's first step); no outside call. */
export async function phoneSources(query: string): Promise<SourceSet> {
  // The full metadata (a few MB) is loaded on the first phone search, not at start-up.
  const { parsePhoneNumberFromString } = await import('libphonenumber-js/max');
  const phone = parsePhoneNumberFromString(query);
  if (!phone) {
    return {
      sources: [
        nothing('Phone Number', 'Invalid', {
          valid: false,
          reason: 'Not a phone number in international form',
        }),
      ],
      metadata: { input: query },
    };
  }
  const valid = phone.isValid();
  const type = phone.getType();
  const country = phone.country ?? null;
  const data = {
    valid,
    possible: phone.isPossible(),
    country,
    countryName: country ? (REGION_NAMES.of(country) ?? country) : null,
    countryCallingCode: `+${phone.countryCallingCode}`,
    lineType: type ?? null,
    international: phone.formatInternational(),
    national: phone.formatNational(),
    e164: phone.number,
    uri: phone.getURI(),
  };
  return {
    sources: [
      valid
        ? source('Phone Number', 'Valid', data, phoneRisk(valid, type), phone.getURI())
        : nothing('Phone Number', 'Invalid', data, phone.getURI()),
    ],
    metadata: {
      e164: phone.number,
      country: data.countryName ?? 'Unknown',
      lineType: type ?? 'Unknown',
      metadata: 'libphonenumber (max)',
    },
  };
}
