import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags, ApiSecurity } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { AppConfig } from '../config/app-config';
import { AdminSessionService } from './admin-session.service';
import { LoginDto } from './dto/login.dto';
import { LogoutView, SessionView } from './dto/session.view';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

/** Dashboard sign-in, sign-out and "who am I". The cookie is the session; the body carries the CSRF token. */
@ApiTags('session')
@Controller('admin/api/session')
export class AdminSessionController {
  constructor(
    private readonly sessions: AdminSessionService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Sign in to the dashboard',
    description:
      'With ADMIN_EMAIL / ADMIN_PASSWORD. Sets the httpOnly session cookie (Path=/admin, SameSite=Strict) and returns the CSRF token. ' +
      'After 10 failed authentications from one address within a minute, that address is refused (429 with Retry-After) until the minute has passed; ' +
      'after 10 failures to one account from any addresses, its sign-ins are refused for a time that doubles with each further failure, at most 60 s (429 with Retry-After).',
  })
  @ApiEnvelopeResponse(201, SessionView)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR, ErrorCode.UNAUTHORIZED, ErrorCode.RATE_LIMITED)
  async createSession(@Body() body: LoginDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionView> {
    const { token, session } = await this.sessions.login(body, req);
    setSessionCookie(reply, this.config, token);
    return session;
  }

  @Get()
  @ApiOperation({ summary: 'The signed-in session', description: 'Who is signed in, until when, and the CSRF token to send on changes. 401 without a live session.' })
  @ApiEnvelopeResponse(200, SessionView)
  @ApiErrorResponses(ErrorCode.UNAUTHORIZED)
  @ApiSecurity('adminSession')
  getSession(@Req() req: FastifyRequest): Promise<SessionView> {
    return this.sessions.describe(req);
  }

  @Delete()
  @AdminAuth()
  @ApiOperation({ summary: 'Sign out', description: 'Ends the session in every gateway process and clears the cookie. Needs `X-CSRF-Token`.' })
  @ApiHeader({ name: 'X-CSRF-Token', required: true, description: 'The csrf_token of the session.' })
  @ApiEnvelopeResponse(200, LogoutView)
  @ApiErrorResponses(ErrorCode.FORBIDDEN)
  async deleteSession(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<LogoutView> {
    await this.sessions.logout(req);
    clearSessionCookie(reply, this.config);
    return { signed_out: true };
  }
}
