@echo off
rem The gantry command on Windows: runs the CLI from the jars in ..\lib with the JVM options the POSIX launcher
rem (bin/gantry) uses. It makes no start-up archive: that logic lives in the POSIX launcher only.
setlocal EnableDelayedExpansion
rem Inside ( ) blocks, paths are expanded with !VAR!: a path such as "C:\Program Files (x86)" would end the block.

set "GANTRY_HOME=%~dp0.."
set "GANTRY_LIB=%GANTRY_HOME%\lib"
if not exist "%GANTRY_LIB%\classpath" (
  echo gantry: !GANTRY_LIB!\classpath is missing: this is not a complete Gantry installation; unpack the gantry archive again 1>&2
  exit /b 2
)

if defined JAVA_HOME (
  set "JAVA_EXE=%JAVA_HOME%\bin\java.exe"
  if not exist "!JAVA_EXE!" (
    echo gantry: JAVA_HOME is "!JAVA_HOME!", but !JAVA_EXE! does not exist; set JAVA_HOME to a Java 17 or newer installation, or unset it to use the java on PATH 1>&2
    exit /b 2
  )
) else (
  set "JAVA_EXE="
  for %%J in (java.exe) do set "JAVA_EXE=%%~$PATH:J"
  if not defined JAVA_EXE (
    echo gantry: no java on PATH and JAVA_HOME is not set; Gantry needs Java 17 or newer: install one and put its bin directory on PATH, or set JAVA_HOME to it 1>&2
    exit /b 2
  )
)

rem The major version from the first line of java -version, e.g. openjdk version "17.0.15" or java version "1.8.0_392".
set "JAVA_VERSION="
rem (The doubled outer quotes survive cmd /c, which strips one pair from a command that starts with a quote.)
for /f "tokens=3" %%V in ('""!JAVA_EXE!" -version 2^>^&1 ^| findstr /i /c:"version""') do (
  if not defined JAVA_VERSION set "JAVA_VERSION=%%~V"
)
set "JAVA_MAJOR="
for /f "tokens=1,2 delims=.+-_" %%A in ("!JAVA_VERSION!") do (
  if "%%A"=="1" (set "JAVA_MAJOR=%%B") else (set "JAVA_MAJOR=%%A")
)
set /a JAVA_MAJOR_NUMBER=JAVA_MAJOR 2>nul
if !JAVA_MAJOR_NUMBER! LSS 17 (
  echo gantry: Java 17 or newer is needed, but !JAVA_EXE! is Java !JAVA_VERSION!; install Java 17+ and set JAVA_HOME to it 1>&2
  exit /b 2
)

rem Java's lib\* wildcard rather than the names in lib\classpath: the full list can pass cmd's 8,191-character line
rem limit. The order of a wildcard is unspecified, which is safe here: no class is in two of the jars.
"!JAVA_EXE!" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -Xshare:auto %GANTRY_JAVA_OPTS% -cp "%GANTRY_LIB%\*" dev.gantry.cli.Main %*
exit /b !ERRORLEVEL!
