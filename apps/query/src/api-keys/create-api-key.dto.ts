import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PERMISSIONS, PRESETS, type PresetName } from '@app/auth';

/** The body of POST /secret: a description, then a preset or permissions, and the instances the key may use. */
@ApiSchema({ name: 'CreateSecretDto' }) // the schema name generated clients already use
export class CreateApiKeyDto {
  @ApiProperty({ maxLength: 200, example: 'shop connector' })
  @IsString()
  @Length(1, 200)
  description!: string;

  /** Colon notation, e.g. search:read. Unknown names are a 400 naming them. */
  @ApiPropertyOptional({
    enum: PERMISSIONS,
    enumName: 'Permission',
    isArray: true,
    example: ['search:read'],
    description: 'Colon notation; only permissions the caller holds. With `preset` the union of both; at least one in all',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  permissions?: string[];

  @ApiPropertyOptional({
    enum: Object.keys(PRESETS),
    description:
      "importer = search:write + persistence:write; collector = events:collect only: a key for shoppers' browsers " +
      '(its secret is public by design) that authenticates `POST /1/events` and nothing else, bound to the instance of ' +
      "this request, with optional `origins`; analytics = analytics:read only: a key for Algolia's analytics clients, " +
      'whose secret is sent as it is in `X-Algolia-API-Key` and reads `GET /2/...` and nothing else',
  })
  @IsOptional()
  @IsIn(Object.keys(PRESETS))
  preset?: PresetName;

  /** Instances the key is valid for; each one the caller may act on, else a 400 naming it. */
  @ApiPropertyOptional({
    type: String,
    isArray: true,
    minItems: 1,
    maxItems: 50,
    example: ['stage'],
    description:
      'The instances the key is valid for, each one the caller may act on. Without it: the instances of the caller when ' +
      'its credential is limited to some (a JWT `instances` claim, a key with `instances`), else every instance of the ' +
      'customer, also ones added later',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 63, { each: true })
  instances?: string[];

  /** Collector keys: the origins CORS is granted to. */
  @ApiPropertyOptional({
    type: String,
    isArray: true,
    maxItems: 50,
    example: ['https://shop.example'],
    description:
      'Only with `preset: "collector"`: the origins (`scheme://host[:port]`) whose pages may send `POST /1/events` with ' +
      'the key; another origin gets no CORS grant and 403. Empty or absent: any origin',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 300, { each: true })
  origins?: string[];
}
