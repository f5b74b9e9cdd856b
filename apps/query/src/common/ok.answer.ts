import { ApiProperty } from '@nestjs/swagger';

/** `{ "ok": true }`: the answer of deletions (the spec's DELETE /notifications). */
export class OkAnswer {
  @ApiProperty({ type: Boolean, example: true, description: 'true: the operation succeeded (failures are error answers)' })
  ok!: true;
}
