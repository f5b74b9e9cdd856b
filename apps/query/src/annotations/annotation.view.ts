import { ApiProperty } from '@nestjs/swagger';

/** An annotation: a moment of the instance's timeline with a note, drawn on the dashboard's charts. */
export class AnnotationView {
  @ApiProperty({ format: 'uuid', example: '0f8a3c7e-5b1d-4e2a-9c6f-1d2e3f4a5b6c', description: 'Pass it to DELETE /annotations/{id}' })
  id!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T09:00:00.000Z', description: 'The moment it marks, in UTC' })
  ts!: string;

  @ApiProperty({ example: 'Winter campaign started', minLength: 1, maxLength: 200, description: 'The note, as sent' })
  text!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T09:05:12.345Z', description: 'When it was created, in UTC' })
  createdAt!: string;
}
