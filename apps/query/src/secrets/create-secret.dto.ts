import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { PRESETS, type PresetName } from '@app/auth';

export class CreateSecretDto {
  @IsString()
  @Length(1, 200)
  description!: string;

  /** Colon notation, e.g. search:read. Unknown names are a 400 naming them. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  permissions?: string[];

  @IsOptional()
  @IsIn(Object.keys(PRESETS))
  preset?: PresetName;
}
