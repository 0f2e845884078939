# systemd service units: where they are installed, and ccnx_service_unit(),
# which configures a unit twice from its template: the installed copy runs
# the installed programs, and a copy under build/systemd runs the build
# tree's, for the tests (systemd-analyze verify insists the programs exist).
set(_ccnx_unit_dir ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
set(_ccnx_user_unit_dir ${CMAKE_INSTALL_PREFIX}/lib/systemd/user)
set(_ccnx_sysusers_dir ${CMAKE_INSTALL_PREFIX}/lib/sysusers.d)
# ccnx_systemd_dir(VAR PC_VARIABLE DEBIAN_DEFAULT): under the prefix /usr,
# the distribution's own folder as systemd.pc names it, else Debian 12's.
macro(ccnx_systemd_dir var pc_variable debian_default)
  if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
    pkg_get_variable(_sd_dir systemd ${pc_variable})
    if(_sd_dir)
      set(${var} ${_sd_dir})
    else()
      set(${var} ${debian_default})
    endif()
  endif()
endmacro()
ccnx_systemd_dir(_ccnx_unit_dir systemdsystemunitdir /lib/systemd/system)
ccnx_systemd_dir(_ccnx_user_unit_dir systemduserunitdir /usr/lib/systemd/user)
ccnx_systemd_dir(_ccnx_sysusers_dir sysusersdir /usr/lib/sysusers.d)
set(CCNX_SYSTEMD_UNIT_DIR ${_ccnx_unit_dir} CACHE PATH "Where the system service units go")
set(CCNX_SYSTEMD_USER_UNIT_DIR ${_ccnx_user_unit_dir} CACHE PATH "Where the user service units go")
set(CCNX_SYSUSERS_DIR ${_ccnx_sysusers_dir} CACHE PATH "Where the sysusers.d file goes")

# ccnx_service_unit(TEMPLATE NAME [USER]): TEMPLATE (a .service.in with
# @CCNX_UNIT_BINDIR@) installed as NAME among the system units, or among
# the user units with USER.
function(ccnx_service_unit template name)
  set(kind system)
  set(dest ${CCNX_SYSTEMD_UNIT_DIR})
  if(ARGV2 STREQUAL "USER")
    set(kind user)
    set(dest ${CCNX_SYSTEMD_USER_UNIT_DIR})
  endif()
  set(CCNX_UNIT_BINDIR ${CMAKE_INSTALL_FULL_BINDIR})
  configure_file(${template} ${CMAKE_BINARY_DIR}/systemd/install/${kind}/${name} @ONLY)
  set(CCNX_UNIT_BINDIR ${CMAKE_BINARY_DIR}/bin)
  configure_file(${template} ${CMAKE_BINARY_DIR}/systemd/build/${kind}/${name} @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/systemd/install/${kind}/${name} DESTINATION ${dest})
endfunction()
