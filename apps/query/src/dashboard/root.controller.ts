import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@app/auth';

/**
 * GET /: a browser opening the service's address lands on the dashboard (302 to /dashboard). Public like the page
 * it points to, and like it not part of the API document.
 */
@ApiExcludeController()
@Controller()
export class RootController {
  @Get()
  @Public()
  @Redirect('/dashboard', 302)
  root(): void {}
}
