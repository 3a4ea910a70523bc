/* Stand-ins for NVIDIA's Cg toolkit (libCg.so, libCgGL.so), which Panda3D's Linux libraries are linked against.

   The game writes its shaders in GLSL and never asks Panda3D for a Cg shader or its shader generator, so Cg never
   compiles anything; Panda3D's OpenGL renderer asks it only which profiles the driver supports. These functions
   answer as the toolkit does where it supports nothing: no profile (CG_PROFILE_UNKNOWN), no error, no context,
   empty strings. scripts/release.py compiles this file twice, into libCg.so (-DCG_CORE) and libCgGL.so
   (-DCG_GL), in place of the toolkit's 20 MB, and refuses a build whose Panda3D asks for a function not here.
   Every function takes its arguments as the caller passes them (they are not read). */

#define CG_PROFILE_UNKNOWN 6145

#ifdef CG_CORE
long cgCombinePrograms(void) { return 0; }
long cgCreateContext(void) { return 0; }
long cgCreateProgram(void) { return 0; }
long cgDestroyContext(void) { return 0; }
long cgDestroyProgram(void) { return 0; }
long cgGetArrayParameter(void) { return 0; }
long cgGetArraySize(void) { return 0; }
long cgGetError(void) { return 0; }
const char *cgGetErrorString(void) { return ""; }
long cgGetFirstParameter(void) { return 0; }
long cgGetFirstStructParameter(void) { return 0; }
const char *cgGetLastListing(void) { return ""; }
long cgGetNamedParameter(void) { return 0; }
long cgGetNextParameter(void) { return 0; }
long cgGetNumProgramDomains(void) { return 0; }
long cgGetNumSupportedProfiles(void) { return 0; }
long cgGetParameterBaseResource(void) { return 0; }
long cgGetParameterBaseType(void) { return 0; }
long cgGetParameterClass(void) { return 0; }
long cgGetParameterColumns(void) { return 0; }
long cgGetParameterDirection(void) { return 0; }
const char *cgGetParameterName(void) { return ""; }
long cgGetParameterResource(void) { return 0; }
long cgGetParameterResourceIndex(void) { return 0; }
const char *cgGetParameterResourceName(void) { return ""; }
long cgGetParameterRows(void) { return 0; }
const char *cgGetParameterSemantic(void) { return ""; }
long cgGetParameterType(void) { return 0; }
long cgGetParameterVariability(void) { return 0; }
int cgGetProfile(void) { return CG_PROFILE_UNKNOWN; }
long cgGetProfileProperty(void) { return 0; }
const char *cgGetProfileString(void) { return ""; }
long cgGetProgramDomain(void) { return 0; }
int cgGetProgramDomainProfile(void) { return CG_PROFILE_UNKNOWN; }
long cgGetProgramDomainProgram(void) { return 0; }
int cgGetProgramProfile(void) { return CG_PROFILE_UNKNOWN; }
const char *cgGetProgramString(void) { return ""; }
int cgGetSupportedProfile(void) { return CG_PROFILE_UNKNOWN; }
long cgIsParameterReferenced(void) { return 0; }
long cgSetParameter1dv(void) { return 0; }
long cgSetParameter1fv(void) { return 0; }
long cgSetParameter1iv(void) { return 0; }
long cgSetParameter2dv(void) { return 0; }
long cgSetParameter2fv(void) { return 0; }
long cgSetParameter2iv(void) { return 0; }
long cgSetParameter3dv(void) { return 0; }
long cgSetParameter3fv(void) { return 0; }
long cgSetParameter3iv(void) { return 0; }
long cgSetParameter4dv(void) { return 0; }
long cgSetParameter4fv(void) { return 0; }
long cgSetParameter4iv(void) { return 0; }
#endif

#ifdef CG_GL
long cgGLBindProgram(void) { return 0; }
long cgGLDetectGLSLVersion(void) { return 0; }
long cgGLDisableProfile(void) { return 0; }
long cgGLEnableProgramProfiles(void) { return 0; }
const char *cgGLGetGLSLVersionString(void) { return ""; }
int cgGLGetLatestProfile(void) { return CG_PROFILE_UNKNOWN; }
long cgGLGetProgramID(void) { return 0; }
long cgGLIsProfileSupported(void) { return 0; }
long cgGLLoadProgram(void) { return 0; }
long cgGLSetContextGLSLVersion(void) { return 0; }
long cgGLSetContextOptimalOptions(void) { return 0; }
long cgGLSetMatrixParameterArraydc(void) { return 0; }
long cgGLSetMatrixParameterArrayfc(void) { return 0; }
long cgGLSetMatrixParameterdc(void) { return 0; }
long cgGLSetMatrixParameterfc(void) { return 0; }
long cgGLSetMatrixParameterfr(void) { return 0; }
long cgGLSetParameter1f(void) { return 0; }
long cgGLSetParameter1fv(void) { return 0; }
long cgGLSetParameter2fv(void) { return 0; }
long cgGLSetParameter3fv(void) { return 0; }
long cgGLSetParameter4f(void) { return 0; }
long cgGLSetParameter4fv(void) { return 0; }
long cgGLSetParameterArray1d(void) { return 0; }
long cgGLSetParameterArray1f(void) { return 0; }
long cgGLSetParameterArray2d(void) { return 0; }
long cgGLSetParameterArray2f(void) { return 0; }
long cgGLSetParameterArray3d(void) { return 0; }
long cgGLSetParameterArray3f(void) { return 0; }
long cgGLSetParameterArray4d(void) { return 0; }
long cgGLSetParameterArray4f(void) { return 0; }
long cgGLUnbindProgram(void) { return 0; }
#endif
