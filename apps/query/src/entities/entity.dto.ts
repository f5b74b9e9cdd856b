import { Type } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { LANGUAGE_PATTERN } from '@app/contracts';

export const ENTITY_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export class EntityBodyDto {
  /** Phrases this entity handles; normalised like search phrases. */
  @ApiPropertyOptional({ type: [String], description: 'Phrases this entity handles (normalised like search phrases)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 500, { each: true })
  searchPhrases?: string[];

  /** Only this language is handled; none means every language. */
  @ApiPropertyOptional({ example: 'de', description: 'Only this language is handled; all when omitted' })
  @IsOptional()
  @Matches(LANGUAGE_PATTERN, { message: 'language must be letters and -, e.g. de or de-ch' })
  language?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}

export class EntityItemDto extends EntityBodyDto {
  @ApiProperty({ example: 'home' })
  @IsString()
  @Matches(ENTITY_ID, { message: 'id must be 1-200 characters of letters, digits and . _ : -' })
  id!: string;
}

export class BulkEntitiesDto {
  @ApiProperty({ type: () => [EntityItemDto] })
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => EntityItemDto)
  items!: EntityItemDto[];
}
