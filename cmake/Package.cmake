# Debian packages with CPack's DEB generator (`make package`; the choice
# and the file layout are in docs/architecture.md, "Packages"). One package
# per install component:
#   runtime    ccnx                  ccnd, ccnr, the tools and apps, man pages,
#                                    service units, the ccnx system user
#   lib        libccnx0              the shared library (SONAME libccnx.so.0)
#   dev        libccnx-dev           headers, libccnx.so, libccnx.pc, CMake package
#   gstreamer  gstreamer1.0-ccnx     ccnsrc and ccnsink
#   wireshark  wireshark-plugin-ccnx the ccnb dissector
#   vlc        vlc-plugin-ccnx       the ccnx: access module
# Each package's Depends come from dpkg-shlibdeps on its binaries, plus the
# packages of this project it needs.
set(CCNX_PACKAGE_MAINTAINER "The CCNx suite authors <maintainers@ccnx-suite.invalid>"
    CACHE STRING "The Maintainer field of the Debian packages")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ccnx)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${CCNX_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_VENDOR "The CCNx suite authors")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libccnx.so.0 is found in the build; the packages that need it depend on
# libccnx0 through the component dependencies below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/ProjectCCNx/ccnx")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_COMPONENTS_ALL runtime lib dev)

set(_pkg_runtime ccnx)
set(_pkg_lib libccnx0)
set(_pkg_dev libccnx-dev)
set(_pkg_gstreamer gstreamer1.0-ccnx)
set(_pkg_wireshark wireshark-plugin-ccnx)
set(_pkg_vlc vlc-plugin-ccnx)
if(TARGET gstccnx)
  list(APPEND CPACK_COMPONENTS_ALL gstreamer)
endif()
if(TARGET ccnx_wireshark)
  list(APPEND CPACK_COMPONENTS_ALL wireshark)
endif()
if(TARGET ccnx_vlc)
  list(APPEND CPACK_COMPONENTS_ALL vlc)
endif()

set(CPACK_COMPONENT_RUNTIME_DEPENDS lib)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION net)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_GSTREAMER_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_WIRESHARK_PACKAGE_SECTION net)
set(CPACK_DEBIAN_VLC_PACKAGE_SECTION video)
# The ccnx user the services run as is made by the maintainer scripts.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS adduser)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libssl-dev")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/cmake/debian/postinst ${CMAKE_SOURCE_DIR}/cmake/debian/prerm
    ${CMAKE_SOURCE_DIR}/cmake/debian/postrm)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# dpkg's ldconfig trigger. CPack also writes maintainer scripts that call
# ldconfig, for any library under /usr/lib, and has no switch to leave them
# out; lintian's warning about them is overridden below with that reason.
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/cmake/debian/triggers)

set(_desc_runtime "forwarder, repository and tools for CCNx 0.x networks\nccnd (the forwarder), ccnr (the repository), the command-line tools,\nthe ccnchat chat client and the ccnexplore namespace browser, wire\ncompatible with CCNx 0.8.2. Service units for ccnd and ccnr are\ninstalled, not enabled.")
set(_desc_lib "core library of the CCNx 0.x suite\nThe library the CCNx suite's programs share: ccnb encoding, names,\nInterests, signed ContentObjects, the client and the pipelined fetch.")
set(_desc_dev "core library of the CCNx 0.x suite (development files)\nHeaders, the pkg-config file libccnx.pc and the CMake package\n(find_package(ccnx), target ccnx::ccnx) for building against libccnx.")
set(_desc_gstreamer "GStreamer elements for CCNx (ccnsrc, ccnsink)\nStreams media over CCNx 0.x: ccnsink publishes, ccnsrc plays, on\ndemand or live.")
set(_desc_wireshark "Wireshark dissector for CCNx 0.x (ccnb)\nDecodes CCNx Interests and ContentObjects over UDP and TCP.")
set(_desc_vlc "VLC access module for CCNx (ccnx: MRLs)\nLets VLC play what ccnsink, ccnputfile and ccnseqwriter publish.")

foreach(c runtime lib dev gstreamer wireshark vlc)
  string(TOUPPER ${c} C)
  set(CPACK_DEBIAN_${C}_PACKAGE_NAME ${_pkg_${c}})
  set(CPACK_DEBIAN_${C}_DESCRIPTION "${_desc_${c}}")
  # Debian wants a copyright file and a changelog in each package's doc folder.
  install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${_pkg_${c}}
          RENAME copyright COMPONENT ${c} EXCLUDE_FROM_ALL)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.Debian.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${_pkg_${c}} COMPONENT ${c} EXCLUDE_FROM_ALL)
  # lintian's findings, explained where lintian reads explanations.
  file(WRITE ${CMAKE_BINARY_DIR}/packaging/overrides/${_pkg_${c}}
       "# Built from the tree, not uploaded to Debian: there is no ITP bug to close.\n"
       "${_pkg_${c}}: initial-upload-closes-no-bugs\n")
  if(c STREQUAL "lib")
    file(APPEND ${CMAKE_BINARY_DIR}/packaging/overrides/${_pkg_${c}}
         "# CPack's DEB generator writes these calls and cannot be told not to; the\n"
         "# triggers file asks dpkg for its ldconfig trigger as well.\n"
         "${_pkg_${c}}: maintscript-calls-ldconfig\n")
  endif()
  install(FILES ${CMAKE_BINARY_DIR}/packaging/overrides/${_pkg_${c}}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides COMPONENT ${c} EXCLUDE_FROM_ALL)
endforeach()

# The changelog a Debian package carries, made at configure time.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/packaging)
string(TIMESTAMP _changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/packaging/changelog.Debian
     "ccnx (${PROJECT_VERSION}-1) unstable; urgency=medium\n\n"
     "  * Built from the CCNx suite's tree with `make package`.\n\n"
     " -- ${CCNX_PACKAGE_MAINTAINER}  ${_changelog_date}\n")
execute_process(COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/packaging/changelog.Debian)

include(CPack)
