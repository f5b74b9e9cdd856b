import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PERMISSIONS, PRESETS, type ApiKey, type Permission, type PresetName } from '@app/auth';

/** An API key as listed: never the secret. */
export class ApiKeyView {
  @ApiProperty({ format: 'uuid', example: '0b6f5a52-4c0e-4d59-9a53-1c3a8f1f2e7d' })
  id!: string;

  @ApiProperty({ example: 'legacy secret', description: 'The first key of an installation is the "legacy secret"' })
  description!: string;

  @ApiProperty({
    enum: PERMISSIONS,
    enumName: 'Permission',
    isArray: true,
    example: ['persistence:write', 'search:write'],
    description: 'Colon notation, sorted',
  })
  permissions!: Permission[];

  @ApiPropertyOptional({
    type: String,
    isArray: true,
    example: ['stage'],
    description:
      'The instances the key is valid for, sorted. Absent: every instance of the customer, also ones added later ' +
      '(so are the keys created before keys had instances)',
  })
  instances?: string[];

  @ApiPropertyOptional({
    type: String,
    isArray: true,
    example: ['https://shop.example'],
    description: 'Collector keys only: the origins CORS is granted to for `POST /1/events`, sorted; empty: any origin',
  })
  origins?: string[];

  @ApiPropertyOptional({
    enum: Object.keys(PRESETS),
    example: 'analytics',
    description: 'The preset the key was made with; absent for a key made from permissions only, or before presets were kept',
  })
  preset?: PresetName;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T09:30:00.000Z' })
  createdAt!: string;
}

/** The one answer that shows the secret: POST /secret. */
export class CreatedApiKeyView extends ApiKeyView {
  @ApiProperty({
    example: '316c035b836ed42606d13dcfad1799258a190d17b9b0b8e4b2048ebd4a102821',
    description:
      '64 hex characters (32 random bytes); shown only in this answer; the key that signs HMAC requests (a collector ' +
      'key: the `X-Algolia-API-Key` of `POST /1/events`, an analytics key: that of `GET /2/...`; neither signs anything)',
  })
  secret!: string;
}

export function toView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    description: key.description,
    permissions: [...key.permissions],
    ...(key.instances ? { instances: [...key.instances] } : {}),
    ...(key.origins ? { origins: [...key.origins] } : {}),
    ...(key.preset ? { preset: key.preset } : {}),
    createdAt: new Date(key.createdAt).toISOString(),
  };
}
