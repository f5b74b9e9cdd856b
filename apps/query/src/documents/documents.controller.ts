import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import type { IntakeResult } from '@app/intake';
import { PutDocumentsCommand } from './put-documents.command';
import { PutDocumentsDto } from './put-documents.dto';

@Controller('documents')
export class DocumentsController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 `{ accepted, rejected: [{ index, reason }] }`; the latest write of an id wins, `deleted: true` removes it. */
  @Put()
  @HttpCode(202)
  @RequirePermission('persistence:write')
  put(@Auth() auth: AuthContext, @Body() body: PutDocumentsDto): Promise<IntakeResult> {
    return this.commands.execute(new PutDocumentsCommand(auth.customer, auth.instance, body.documents));
  }
}
